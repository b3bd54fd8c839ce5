import Foundation
import Pushbutton

/// One response a device reported (`POST /v1/apps/{app}/taps`), as stored: the wire's ``TapEvent`` and the app it
/// was reported to. Joined to its notification by `notificationID` when the stats are read, not when it is stored.
///
/// The event's fields read and write through the record (`record.eventID`, `record.response`): one definition of
/// the fields, the device's and the gateway's.
@dynamicMemberLookup
public struct TapRecord: Sendable, Hashable {
    /// What the user did.
    public typealias Response = TapEvent.Response

    /// The app the event was reported to.
    public var app: String
    /// The event as the device reported it (the gateway lowercases the token).
    public var event: TapEvent

    /// A record of `event`, reported to `app`.
    public init(app: String, event: TapEvent) {
        self.app = app
        self.event = event
    }

    /// A record with every field of its event given.
    public init(
        app: String, eventID: String, token: String, notificationID: String, campaignID: String? = nil,
        variant: String? = nil, category: String, response: Response, button: String? = nil, foreground: Bool,
        latencyMilliseconds: Int64? = nil, reply: String? = nil, respondedAt: Date
    ) {
        self.init(
            app: app,
            event: TapEvent(
                eventID: eventID, token: token, notificationID: notificationID, campaignID: campaignID,
                variant: variant, category: category, response: response, button: button, foreground: foreground,
                latencyMilliseconds: latencyMilliseconds, reply: reply, respondedAt: respondedAt))
    }

    /// A field of the ``event``: `record.token` is `record.event.token`.
    public subscript<Value>(dynamicMember field: WritableKeyPath<TapEvent, Value>) -> Value {
        get { event[keyPath: field] }
        set { event[keyPath: field] = newValue }
    }
}
