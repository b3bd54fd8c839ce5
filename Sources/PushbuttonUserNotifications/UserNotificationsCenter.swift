// tvOS has no notification actions, categories or responses: this module is empty there.
#if !os(tvOS)
    /// The former name of ``SystemNotificationCenter``, one letter away from the `UserNotificationCenter` protocol
    /// it implements.
    @available(*, deprecated, renamed: "SystemNotificationCenter")
    public typealias UserNotificationsCenter = SystemNotificationCenter
#endif
