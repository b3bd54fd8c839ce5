import Foundation
import Pushbutton

extension APNsNotification {
    /// A notification of `payload` for the app `bundleID`, sent as `pushType` to the topic that type needs
    /// (the bundle id with `.voip`, `.push-type.liveactivity`, … appended; see ``PushType/topicSuffix``).
    public init(
        deviceToken: DeviceToken, payload: Payload, bundleID: String, pushType: PushType,
        priority: APNsPriority? = nil, expiration: APNsExpiration? = nil, collapseID: String? = nil,
        apnsID: UUID = APNsNotification.newID()
    ) {
        self.init(
            deviceToken: deviceToken, payload: payload, topic: pushType.topic(forBundleID: bundleID),
            pushType: pushType, priority: priority, expiration: expiration, collapseID: collapseID, apnsID: apnsID)
    }

    /// A Live Activity push (start, update or end) to the token ActivityKit gave for it, at the
    /// `<bundle id>.push-type.liveactivity` topic:
    ///
    /// ```swift
    /// let push = LiveActivityPush.update(contentState: ["minutes": 4], timestamp: Date())
    /// let result = await client.send(try .liveActivity(push, deviceToken: token, bundleID: "com.example.app"))
    /// ```
    ///
    /// Priority 10 shows the change now and counts against the activity's budget; 5 is delivered when the
    /// device's power allows, without a budget.
    ///
    /// - Throws: ``APNsError`` of kind `invalidDeviceToken` when `deviceToken` is not a device token in hex.
    public static func liveActivity(
        _ push: LiveActivityPush, deviceToken: String, bundleID: String,
        priority: APNsPriority = .immediately, expiration: APNsExpiration? = nil,
        apnsID: UUID = APNsNotification.newID()
    ) throws(APNsError) -> APNsNotification {
        APNsNotification(
            deviceToken: try DeviceToken(deviceToken), payload: push.payload, bundleID: bundleID,
            pushType: .liveactivity, priority: priority, expiration: expiration, apnsID: apnsID)
    }

    /// What APNs would refuse about this request, each with the reason it answers and the fix: an undocumented
    /// push type, a topic without the suffix its push type needs (or with another type's), a priority the
    /// type does not allow, an empty or oversized payload, a collapse id over 64 bytes, a negative expiration,
    /// and a location or Live Activity push without a provider token.
    ///
    /// - Parameter tokenAuthentication: whether the connection sends provider tokens (false for certificates).
    public func requestProblems(tokenAuthentication: Bool = true) -> [APNsRequestProblem] {
        var problems = Self.headerProblems(
            topic: topic, pushType: pushType, priority: priority, expiration: expiration, collapseID: collapseID,
            tokenAuthentication: tokenAuthentication)
        guard pushType.isKnown else { return problems }
        if payload.isEmpty {
            problems.append(.init(.payloadEmpty, "the payload is empty; send at least {\"aps\":{}}"))
        } else if payload.count > pushType.maximumPayloadSize {
            problems.append(
                .init(
                    .payloadTooLarge,
                    "the payload is \(payload.count) bytes, over the \(pushType.maximumPayloadSize)-byte limit for "
                        + "\(pushType) pushes; shorten it"))
        }
        return problems
    }

    /// The problems of ``requestProblems(tokenAuthentication:)`` that the headers alone have, for a caller that
    /// checks them once for many notifications (a command line's `--topic` and `--push-type`).
    public static func headerProblems(
        topic: String, pushType: PushType, priority: Int? = nil, expiration: Int64? = nil, collapseID: String? = nil,
        tokenAuthentication: Bool = true
    ) -> [APNsRequestProblem] {
        guard pushType.isKnown else {
            let known = PushType.known.map(\.rawValue).joined(separator: ", ")
            return [
                .init(.invalidPushType, "'\(pushType)' is not an apns-push-type APNs documents; use one of \(known)")
            ]
        }
        var problems: [APNsRequestProblem] = []
        if topic.isEmpty {
            problems.append(.init(.missingTopic, "the apns-topic is empty; set it to the app's bundle id"))
        } else if let problem = topicProblem(topic, pushType) {
            problems.append(problem)
        }
        if pushType.requiresTokenAuthentication && !tokenAuthentication {
            problems.append(
                .init(
                    .topicDisallowed,
                    "\(pushType) pushes need a provider token; a certificate connection cannot send them"))
        }
        if let priority, !pushType.allowedPriorities.contains(priority) {
            let allowed = pushType.allowedPriorities.map(String.init).joined(separator: ", ")
            problems.append(
                .init(.badPriority, "apns-priority \(priority) is not allowed for \(pushType) pushes; use \(allowed)"))
        }
        if let collapseID, collapseID.utf8.count > 64 {
            problems.append(
                .init(.badCollapseId, "the apns-collapse-id is \(collapseID.utf8.count) bytes; at most 64 are allowed"))
        }
        if let expiration, expiration < 0 {
            problems.append(
                .init(.badExpirationDate, "apns-expiration \(expiration) is negative; use epoch seconds, or 0"))
        }
        return problems
    }

    /// Throws the first of ``requestProblems(tokenAuthentication:)`` as an ``APNsError`` of kind
    /// `invalidRequest`, for a caller that refuses such a request before it reaches the network.
    public func check(tokenAuthentication: Bool = true) throws(APNsError) {
        if let problem = requestProblems(tokenAuthentication: tokenAuthentication).first {
            throw APNsError(.invalidRequest, problem.description)
        }
    }

    private static func topicProblem(_ topic: String, _ pushType: PushType) -> APNsRequestProblem? {
        let other = PushType.suffixed(topic: topic)
        let bundleID = other.flatMap(\.topicSuffix).map { String(topic.dropLast($0.count)) } ?? topic
        if let suffix = pushType.topicSuffix {
            if topic == suffix {
                return .init(.deviceTokenNotForTopic, "the apns-topic '\(topic)' has no bundle id before '\(suffix)'")
            }
            guard !topic.hasSuffix(suffix) else { return nil }
            return .init(
                .deviceTokenNotForTopic,
                "\(pushType.withArticle) push goes to '\(pushType.topic(forBundleID: bundleID))', not '\(topic)'")
        }
        guard let other, pushType != .mdm else { return nil }
        return .init(
            .deviceTokenNotForTopic,
            "'\(topic)' is the topic of \(other) pushes; \(pushType.withArticle) push goes to '\(bundleID)'")
    }
}
