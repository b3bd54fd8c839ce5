extension Diagnostic.Code {
    // Push types and Live Activities.
    /// An `apns-priority` the push type does not allow (APNs answers 400 BadPriority).
    public static let priorityNotAllowed: Self = "priority-not-allowed"
    /// An `apns-topic` without the suffix its push type needs, or with another type's suffix (APNs answers
    /// 400 DeviceTokenNotForTopic).
    public static let topicMismatch: Self = "topic-mismatch"
    /// A Live Activity payload key that is wrong for its event (a start without attributes, a dismissal date
    /// on an update, a push token and a channel both asked for).
    public static let liveActivityEvent: Self = "live-activity-event"
}
