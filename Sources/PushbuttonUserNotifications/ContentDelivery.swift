#if !os(tvOS)
    import PushbuttonReceiver
    import PushbuttonSupport

    #if canImport(UserNotifications)
        import UserNotifications
    #else
        import UserNotificationsStandIn
    #endif

    /// A service extension's content and the system's content handler, delivered at most once.
    final class ContentDelivery: Sendable {
        /// The system's content handler, carried across tasks.
        ///
        /// `@unchecked Sendable`: the extension's content handler is a block the system lets any thread call
        /// (Xcode's extension template calls it from `serviceExtensionTimeWillExpire()`, which runs on another
        /// thread); it is only not annotated `@Sendable`. ``ContentDelivery`` calls it at most once.
        struct Handler: @unchecked Sendable {
            let call: (UNNotificationContent) -> Void
        }

        private let state: Locked<(content: UNNotificationContent, handler: Handler)?>

        init(content: UNNotificationContent, handler: @escaping (UNNotificationContent) -> Void) {
            state = Locked((content, Handler(call: handler)))
        }

        /// Changes the content while it is not delivered (under the lock a delivery takes, so a change is never
        /// half made when the budget delivers); returns whether it did.
        @discardableResult
        func update(_ change: (UNMutableNotificationContent) -> Void) -> Bool {
            state.withLock { state in
                guard let content = state?.content as? UNMutableNotificationContent else { return false }
                change(content)
                return true
            }
        }

        /// Delivers if nobody has; returns whether this call did.
        @discardableResult
        func deliver() -> Bool {
            let taken = state.withLock { state -> (content: UNNotificationContent, handler: Handler)? in
                defer { state = nil }
                return state
            }
            guard let taken else { return false }
            taken.handler.call(taken.content)
            return true
        }
    }
#endif
