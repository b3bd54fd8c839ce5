// tvOS has no notification actions, categories or service extensions: this module is empty there.
#if !os(tvOS)
    import Foundation
    import Pushbutton
    import PushbuttonReceiver
    import PushbuttonSupport

    #if canImport(UserNotifications)
        import UserNotifications
    #else
        import UserNotificationsStandIn
    #endif

    /// The Notification Service Extension's part in showing a payload's dynamic buttons on a device.
    ///
    /// Buttons appear only if their category is registered **before** the notification is displayed. For a
    /// remote notification with `mutable-content: 1`, the system first runs the app's service extension; this
    /// type, called from its `didReceive(_:withContentHandler:)`, registers the payload's dynamic category
    /// (merging with every registered category and keeping at most ``DynamicCategories/maximumRegistered``
    /// dynamic ones, as ``CategoryRegistrar`` does) and then hands the content back, naming that category.
    ///
    /// The content handler is called exactly once: when the registration is done, or when ``budget`` has passed,
    /// or at ``serviceExtensionTimeWillExpire()``, whichever is first, so a slow system never costs the
    /// notification (it is then shown with the content so far, buttons only if the category made it in time).
    ///
    /// ```swift
    /// final class NotificationService: UNNotificationServiceExtension {
    ///     private let pushbutton = PushbuttonNotificationService()
    ///     override func didReceive(
    ///         _ request: UNNotificationRequest, withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void
    ///     ) { pushbutton.didReceive(request, withContentHandler: contentHandler) }
    ///     override func serviceExtensionTimeWillExpire() { pushbutton.serviceExtensionTimeWillExpire() }
    /// }
    /// ```
    ///
    /// `@unchecked Sendable`: its only mutable state, the delivery in progress, is behind ``Locked``.
    public final class PushbuttonNotificationService: @unchecked Sendable {
        /// How long the registration may take before the content is delivered without waiting for it (the
        /// system allows an extension about 30 seconds).
        public let budget: Duration
        private let center: SystemNotificationCenter
        private let clock: AnyDurationClock
        private let current = Locked<ContentDelivery?>(nil)

        public convenience init(center: UNUserNotificationCenter = .current(), budget: Duration = .seconds(20)) {
            self.init(center: center, budget: budget, clock: ContinuousClock())
        }

        /// - Parameter clock: the clock the budget is measured on (a `ManualClock` in tests).
        public init<C: Clock>(center: UNUserNotificationCenter, budget: Duration, clock: C)
        where C.Duration == Duration, C: Sendable {
            self.center = SystemNotificationCenter(center: center)
            self.budget = budget
            self.clock = AnyDurationClock(clock)
        }

        /// Call from the extension's `didReceive(_:withContentHandler:)`.
        public func didReceive(
            _ request: UNNotificationRequest,
            withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void
        ) {
            let userInfo = UserNotificationsMapping.jsonObject(request.content.userInfo)
            guard let payload = Payload.parse(.object(userInfo)).payload,
                let buttons = payload.actions?.dynamicButtons, !buttons.isEmpty
            else {
                contentHandler(request.content)  // no dynamic buttons: nothing to register
                return
            }
            let content =
                request.content.mutableCopy() as? UNMutableNotificationContent ?? UNMutableNotificationContent()
            content.categoryIdentifier = DynamicCategories.identifier(for: buttons)
            let delivery = ContentDelivery(content: content, handler: contentHandler)
            current.withLock { $0 = delivery }
            let registrar = CategoryRegistrar(center: center)
            let center = center
            let registration = Task {
                await registrar.prepare(for: payload)
                // Read the categories back before handing the content over: the read is answered once the write
                // is applied, so iOS has the category when it displays the notification (push SDKs document the
                // read-back as needed for the buttons to show).
                _ = await center.notificationCategories()
                delivery.deliver()
            }
            let budget = budget
            Task { [clock] in
                try? await clock.sleep(for: budget)
                if delivery.deliver() { registration.cancel() }
            }
        }

        /// Call from the extension's `serviceExtensionTimeWillExpire()`: delivers the content now if it is not yet.
        public func serviceExtensionTimeWillExpire() {
            current.withLock { $0 }?.deliver()
        }
    }
#endif
