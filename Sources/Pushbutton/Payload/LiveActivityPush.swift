import Foundation

/// A Live Activity push: start (push-to-start), update or end, as typed values that write the payload
/// ActivityKit expects. Send ``payload`` with push type ``PushType/liveactivity`` to
/// `PushType.liveactivity.topic(forBundleID:)`.
///
/// ```swift
/// let push = LiveActivityPush.update(contentState: ["driver": "Anne", "minutes": 4], timestamp: now)
/// let bytes = PayloadWriter.encode(push.payload)
/// ```
///
/// What each event needs is checked by ``PayloadValidator`` with push type `liveactivity`.
public struct LiveActivityPush: Sendable, Hashable {
    /// How a started activity receives its updates.
    public enum Updates: Sendable, Hashable {
        /// Only through the app (or the push-to-start token's app); the start asks for nothing.
        case none
        /// Through a push token of its own, which the system gives the app (`input-push-token: 1`, iOS 18).
        case pushToken
        /// Through the broadcast channel with this id (`input-push-channel`, iOS 18).
        case channel(String)
    }

    /// `event`: start, update or end.
    public var event: LiveActivityEvent
    /// `timestamp`: when the content was made; the system ignores a push older than the last one.
    public var timestamp: Date
    /// `content-state`: the values of the activity's `ContentState`.
    public var contentState: JSONValue?
    /// `stale-date`: when the content stops being current.
    public var staleDate: Date?
    /// `dismissal-date` (end only): when the system removes the ended activity.
    public var dismissalDate: Date?
    /// `relevance-score`: orders the app's Live Activities (the highest shows in the Dynamic Island).
    public var relevanceScore: Double?
    /// `alert`: required to start; optional on an update or end, which then also lights the screen.
    public var alert: AlertContent?
    /// The sound played with the alert: `alert.sound`, inside the alert, where ActivityKit reads it.
    public var sound: String?
    /// `attributes-type` (start only): the name of the activity's `ActivityAttributes` type.
    public var attributesType: String?
    /// `attributes` (start only): the static values of the activity's attributes.
    public var attributes: JSONValue?
    /// How a started activity receives its updates (start only).
    public var updates: Updates

    /// A push of `event`; prefer ``start(attributesType:attributes:contentState:alert:timestamp:updates:staleDate:relevanceScore:)``,
    /// ``update(contentState:timestamp:alert:staleDate:relevanceScore:)`` and ``end(contentState:timestamp:dismissalDate:)``.
    public init(
        event: LiveActivityEvent, timestamp: Date, contentState: JSONValue? = nil, staleDate: Date? = nil,
        dismissalDate: Date? = nil, relevanceScore: Double? = nil, alert: AlertContent? = nil, sound: String? = nil,
        attributesType: String? = nil, attributes: JSONValue? = nil, updates: Updates = .none
    ) {
        self.event = event
        self.timestamp = timestamp
        self.contentState = contentState
        self.staleDate = staleDate
        self.dismissalDate = dismissalDate
        self.relevanceScore = relevanceScore
        self.alert = alert
        self.sound = sound
        self.attributesType = attributesType
        self.attributes = attributes
        self.updates = updates
    }

    /// Starts a Live Activity on a device from its push-to-start token (iOS 17.2).
    public static func start(
        attributesType: String, attributes: JSONValue, contentState: JSONValue, alert: AlertContent,
        timestamp: Date, updates: Updates = .pushToken, staleDate: Date? = nil, relevanceScore: Double? = nil
    ) -> LiveActivityPush {
        LiveActivityPush(
            event: .start, timestamp: timestamp, contentState: contentState, staleDate: staleDate,
            relevanceScore: relevanceScore, alert: alert, attributesType: attributesType, attributes: attributes,
            updates: updates)
    }

    /// Updates a running Live Activity, optionally with an alert.
    public static func update(
        contentState: JSONValue, timestamp: Date, alert: AlertContent? = nil, staleDate: Date? = nil,
        relevanceScore: Double? = nil
    ) -> LiveActivityPush {
        LiveActivityPush(
            event: .update, timestamp: timestamp, contentState: contentState, staleDate: staleDate,
            relevanceScore: relevanceScore, alert: alert)
    }

    /// Ends a Live Activity with its final content; the system removes it at `dismissalDate` (at once for a
    /// date in the past, after up to four hours when `nil`).
    public static func end(contentState: JSONValue?, timestamp: Date, dismissalDate: Date? = nil) -> LiveActivityPush {
        LiveActivityPush(event: .end, timestamp: timestamp, contentState: contentState, dismissalDate: dismissalDate)
    }

    /// The APNs payload.
    public var payload: Payload {
        var payload = Payload()
        payload.aps.liveActivity = LiveActivityFields(
            timestamp: Self.seconds(timestamp), event: event.rawValue, contentState: contentState,
            staleDate: staleDate.map(Self.seconds), dismissalDate: dismissalDate.map(Self.seconds),
            attributesType: attributesType, attributes: attributes)
        payload.aps.relevanceScore = relevanceScore
        if var alert {
            if let sound { alert.extra["sound"] = .string(sound) }
            payload.aps.alert = .content(alert)
        }
        switch updates {
        case .none: break
        case .pushToken: payload.aps.inputPushToken = true
        case .channel(let id): payload.aps.inputPushChannel = id
        }
        return payload
    }

    /// Whole epoch seconds, as APNs reads them (rounded down, so a timestamp never lies in the future).
    static func seconds(_ date: Date) -> Int64 {
        Int64(date.timeIntervalSince1970.rounded(.down))
    }
}
