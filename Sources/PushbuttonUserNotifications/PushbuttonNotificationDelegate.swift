// tvOS has no notification actions, categories or responses: this module is empty there.
#if !os(tvOS)
    import Foundation
    import Pushbutton
    import PushbuttonReceiver

    #if canImport(UserNotifications)
        import UserNotifications
    #else
        import UserNotificationsStandIn
    #endif

    /// The `UNUserNotificationCenterDelegate` Pushbutton installs. It hands every response to Pushbutton's
    /// handler (the router) **and** to the delegate that was installed before it, so several libraries can
    /// coexist; the system's completion handler is called once, when both have finished (or at the deadline).
    /// It answers foreground presentation as ``ForegroundPresentation`` says, and passes the request for the
    /// app's notification settings (`providesAppNotificationSettings`) to the previous delegate.
    ///
    /// `@unchecked Sendable`: its stored properties are set once in `init`; `previous` is a weak reference
    /// the system may read from any thread, as it does its own delegate.
    public final class PushbuttonNotificationDelegate: NSObject, UNUserNotificationCenterDelegate, @unchecked Sendable {
        public let handler: any NotificationResponseHandler
        /// The delegate installed before Pushbutton's (held weakly, as the system holds delegates).
        public private(set) weak var previous: (any UNUserNotificationCenterDelegate)?
        public let presentation: ForegroundPresentation
        private let joinDeadline: Duration

        public init(
            handler: any NotificationResponseHandler, previous: (any UNUserNotificationCenterDelegate)?,
            presentation: ForegroundPresentation = ForegroundPresentation(), joinDeadline: Duration
        ) {
            self.handler = handler
            self.previous = previous
            self.presentation = presentation
            self.joinDeadline = joinDeadline
            super.init()
        }

        public func userNotificationCenter(
            _ center: UNUserNotificationCenter, didReceive response: UNNotificationResponse,
            withCompletionHandler completionHandler: @escaping @Sendable () -> Void
        ) {
            let previous = self.previous
            let join = JoinedCompletion(
                parts: previous == nil ? 1 : 2, deadline: joinDeadline, completion: completionHandler)
            handler.handle(UserNotificationsMapping.response(response)) { join.part() }
            guard let previous else { return }
            #if canImport(UserNotifications)
                // An Objective-C delegate may not implement the optional method; then it has nothing to finish.
                if previous.userNotificationCenter?(
                    center, didReceive: response, withCompletionHandler: { join.part() })
                    == nil
                {
                    join.part()
                }
            #else
                previous.userNotificationCenter(center, didReceive: response, withCompletionHandler: { join.part() })
            #endif
        }

        public func userNotificationCenter(
            _ center: UNUserNotificationCenter, willPresent notification: UNNotification,
            withCompletionHandler completionHandler: @escaping @Sendable (UNNotificationPresentationOptions) -> Void
        ) {
            if let decide = presentation.decide,
                let options = decide(UserNotificationsMapping.notification(notification))
            {
                completionHandler(options)
                return
            }
            guard let previous else {
                completionHandler(presentation.defaultOptions)
                return
            }
            #if canImport(UserNotifications)
                if previous.userNotificationCenter?(
                    center, willPresent: notification, withCompletionHandler: completionHandler)
                    == nil
                {
                    completionHandler(presentation.defaultOptions)
                }
            #else
                previous.userNotificationCenter(
                    center, willPresent: notification, withCompletionHandler: completionHandler)
            #endif
        }

        // watchOS has no in-app notification settings.
        #if !os(watchOS)
            public func userNotificationCenter(
                _ center: UNUserNotificationCenter, openSettingsFor notification: UNNotification?
            ) {
                #if canImport(UserNotifications)
                    previous?.userNotificationCenter?(center, openSettingsFor: notification)
                #else
                    previous?.userNotificationCenter(center, openSettingsFor: notification)
                #endif
            }
        #endif
    }
#endif
