#if !os(tvOS)
    import PushbuttonReceiver

    #if canImport(UserNotifications)
        import UserNotifications
    #else
        import UserNotificationsStandIn
    #endif

    /// How a notification that arrives while the app is in the foreground is presented.
    ///
    /// The system asks the delegate each time; Pushbutton answers with ``decide`` if it gives an answer, else
    /// with the delegate installed before Pushbutton's (if it implements the method), else with
    /// ``defaultOptions``. The default presents nothing, as the system does for an app without a delegate.
    public struct ForegroundPresentation: Sendable {
        /// The options when neither ``decide`` nor a previous delegate answers.
        public var defaultOptions: UNNotificationPresentationOptions
        /// Decides per notification; `nil` from it passes the decision on.
        public var decide: (@Sendable (DeliveredNotification) -> UNNotificationPresentationOptions?)?

        public init(
            defaultOptions: UNNotificationPresentationOptions = [],
            decide: (@Sendable (DeliveredNotification) -> UNNotificationPresentationOptions?)? = nil
        ) {
            self.defaultOptions = defaultOptions
            self.decide = decide
        }
    }
#endif
