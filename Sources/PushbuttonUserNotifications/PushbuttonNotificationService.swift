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

    /// The Notification Service Extension's part in showing a payload's dynamic buttons, its media and, when the
    /// app opts in, recording that it was received.
    ///
    /// Buttons appear only if their category is registered **before** the notification is displayed. For a
    /// remote notification with `mutable-content: 1`, the system first runs the app's service extension; this
    /// type, called from its `didReceive(_:withContentHandler:)`, registers the payload's dynamic category
    /// (merging with every registered category and keeping at most ``DynamicCategories/maximumRegistered``
    /// dynamic ones, as ``CategoryRegistrar`` does), meanwhile downloads and attaches `pushbutton.media`
    /// (see ``NotificationServiceOptions``) and records a display receipt when ``NotificationServiceOptions/receipts``
    /// is set, and then hands the content back, naming that category.
    ///
    /// The content handler is called exactly once: when all of that is done, or when ``budget`` has passed,
    /// or at ``serviceExtensionTimeWillExpire()``, whichever is first, so a slow system or a slow, broken or hostile
    /// media server never costs the notification or its buttons: it is then shown without the media (buttons only
    /// if the category made it in time), and ``NotificationServiceOptions/onMedia`` says why.
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
        /// How long the registration, the media and the receipt may take before the content is delivered without
        /// waiting for them (the system allows an extension about 30 seconds).
        public let budget: Duration
        /// Media, receipts.
        public let options: NotificationServiceOptions
        private let center: SystemNotificationCenter
        private let clock: AnyDurationClock
        private let current = Locked<ContentDelivery?>(nil)
        /// The registration, media and receipt work of the last ``didReceive(_:withContentHandler:)``.
        private let work = Locked<Task<Void, Never>?>(nil)

        public convenience init(
            center: UNUserNotificationCenter = .current(), budget: Duration = .seconds(20),
            options: NotificationServiceOptions = NotificationServiceOptions()
        ) {
            self.init(center: center, budget: budget, clock: ContinuousClock(), options: options)
        }

        /// - Parameter clock: the clock the budget is measured on (a `ManualClock` in tests).
        public init<C: Clock>(
            center: UNUserNotificationCenter, budget: Duration, clock: C,
            options: NotificationServiceOptions = NotificationServiceOptions()
        )
        where C.Duration == Duration, C: Sendable {
            self.center = SystemNotificationCenter(center: center)
            self.budget = budget
            self.clock = AnyDurationClock(clock)
            self.options = options
        }

        /// Call from the extension's `didReceive(_:withContentHandler:)`.
        public func didReceive(
            _ request: UNNotificationRequest,
            withContentHandler contentHandler: @escaping (UNNotificationContent) -> Void
        ) {
            let userInfo = UserNotificationsMapping.jsonObject(request.content.userInfo)
            let payload = Payload.parse(.object(userInfo)).payload
            let buttons = payload?.actions?.dynamicButtons ?? []
            let media = options.downloadsMedia ? payload?.actions?.media : nil
            let receipts = payload?.actions?.notificationID == nil ? nil : options.receipts
            guard let payload, !buttons.isEmpty || media != nil || receipts != nil else {
                contentHandler(request.content)  // nothing to register, download or record
                return
            }
            let content =
                request.content.mutableCopy() as? UNMutableNotificationContent ?? UNMutableNotificationContent()
            if !buttons.isEmpty { content.categoryIdentifier = DynamicCategories.identifier(for: buttons) }
            let delivery = ContentDelivery(content: content, handler: contentHandler)
            current.withLock { $0 = delivery }
            let (registrar, center, options) = (CategoryRegistrar(center: center), center, options)
            let (identifier, receivedAt, budget, elapsed) = (request.identifier, Date(), budget, clock.stopwatch())
            let work = Task {
                await withTaskGroup(of: Void.self) { group in
                    if !buttons.isEmpty {
                        group.addTask {
                            await registrar.prepare(for: payload)
                            // Read the categories back before handing the content over: the read is answered once
                            // the write is applied, so iOS has the category when it displays the notification
                            // (push SDKs document the read-back as needed for the buttons to show).
                            _ = await center.notificationCategories()
                        }
                    }
                    if let media {
                        group.addTask { await Self.attach(media, to: delivery, notification: identifier, options) }
                    }
                    if let receipts {
                        // Committed before the content is handed back: the extension may be ended right after.
                        group.addTask { _ = try? await receipts.recordReceipt(for: payload, receivedAt: receivedAt) }
                    }
                }
                delivery.deliver()
                // Best effort in what is left of the budget; what is not sent waits in the shared outbox.
                if let receipts, elapsed() < budget { await receipts.deliverWaiting(timeLimit: budget - elapsed()) }
            }
            self.work.withLock { $0 = work }
            Task { [clock] in
                try? await clock.sleep(for: budget)
                if delivery.deliver() { work.cancel() }
            }
        }

        /// Downloads the media and attaches it unless the content was delivered meanwhile; reports either way.
        private static func attach(
            _ media: PayloadMedia, to delivery: ContentDelivery, notification identifier: String,
            _ options: NotificationServiceOptions
        ) async {
            var (attachment, report) = await MediaAttaching.attachment(
                for: media, notification: identifier, options: options)
            if let attachment, !delivery.update({ $0.attachments = [attachment] }) {
                try? FileManager.default.removeItem(at: attachment.url)
                report.outcome = .failure(.timedOut)
            }
            options.onMedia?(report)
        }

        /// Call from the extension's `serviceExtensionTimeWillExpire()`: delivers the content now if it is not yet.
        public func serviceExtensionTimeWillExpire() {
            current.withLock { $0 }?.deliver()
        }

        /// Returns once the work of the last ``didReceive(_:withContentHandler:)`` has ended (its last step hands
        /// the content over unless the budget did): what a test awaits before it checks nothing came after.
        package func workEnded() async {
            await work.withLock { $0 }?.value
        }
    }
#endif
