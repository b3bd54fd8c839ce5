import Pushbutton

/// The push-type rules APNs applies to a request's headers: a documented `apns-push-type`, the topic suffix
/// it needs, the priorities it allows and the authentication it needs.
extension RequestValidator {
    /// The bundle id a topic addresses for `pushType`, or APNs' 400 for a topic that does not fit the type.
    ///
    /// A topic without the type's suffix (a VoIP push to `com.example.app`), or with another type's suffix (an
    /// alert to `com.example.app.voip`), names another topic than the device token's: APNs answers
    /// DeviceTokenNotForTopic, as providers report for a missing `.voip`. Location and Live Activity pushes on a
    /// connection without a provider token get TopicDisallowed (the certificate lists no such topic).
    static func bundleID(topic: String, pushType name: String?, tokenAuthentication: Bool)
        -> Result<String, MockResponse>
    {
        let pushType = PushType(rawValue: name ?? "alert")
        guard pushType.isKnown else { return .failure(MockResponse(status: 400, reason: "InvalidPushType")) }
        if pushType.requiresTokenAuthentication && !tokenAuthentication {
            return .failure(MockResponse(status: 400, reason: "TopicDisallowed"))
        }
        if let suffix = pushType.topicSuffix {
            guard topic.hasSuffix(suffix), topic.utf8.count > suffix.utf8.count else {
                return .failure(MockResponse(status: 400, reason: "DeviceTokenNotForTopic"))
            }
            return .success(String(topic.dropLast(suffix.count)))
        }
        // mdm topics are the push certificate's UID, taken as they are; alert and background use the bundle id.
        if pushType != .mdm, PushType.suffixed(topic: topic) != nil {
            return .failure(MockResponse(status: 400, reason: "DeviceTokenNotForTopic"))
        }
        return .success(topic)
    }

    /// APNs' 400 BadPriority for a priority it does not know or the push type does not allow (background: 5).
    static func priorityProblem(_ priority: String, pushType name: String?) -> MockResponse? {
        guard let value = Int(priority), String(value) == priority, [10, 5, 1].contains(value) else {
            return MockResponse(status: 400, reason: "BadPriority")
        }
        let pushType = PushType(rawValue: name ?? "alert")
        return pushType.allowedPriorities.contains(value) ? nil : MockResponse(status: 400, reason: "BadPriority")
    }
}
