// tvOS has no notification actions, categories or responses: this module is empty there.
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

    /// Pushbutton's ``UserNotificationCenter`` over the system's `UNUserNotificationCenter`.
    ///
    /// Categories read from the system keep their original objects: when the merged set is written back,
    /// a category Pushbutton did not change is passed through untouched, so nothing another library set
    /// (an icon, a localized title) is lost by re-creating it.
    ///
    /// `@unchecked Sendable`: `UNUserNotificationCenter` may be used from any thread (Apple's documentation),
    /// and this type's own mutable state is behind ``Locked``.
    public final class SystemNotificationCenter: UserNotificationCenter, @unchecked Sendable {
        public let center: UNUserNotificationCenter
        /// The language button titles are resolved in.
        public let locale: String?
        /// Where titles are read first: the app's `PushbuttonNotifications` table in ``locale`` (what
        /// `pushbutton codegen` writes), so a translator's edit there wins over the manifest's text.
        public let strings: StringTable
        private let deadline: Duration
        private let presentation: ForegroundPresentation
        private let originals = Locked([String: (model: Pushbutton.Category, object: UNNotificationCategory)]())
        private let installedDelegate = Locked<PushbuttonNotificationDelegate?>(nil)
        private let startupState = Locked<NotificationStartup?>(nil)

        /// The set-up the last ``start(routingTo:registering:authorization:remoteNotifications:deviceTokens:)`` made.
        public var startup: NotificationStartup? { startupState.withLock { $0 } }

        func setStartup(_ startup: NotificationStartup) { startupState.withLock { $0 = startup } }

        /// - Parameters:
        ///   - locale: the language for titles (default: the app's, ``AppLanguage/current``, the user's first
        ///     preferred language the app is localized into, so titles match the rest of the app).
        ///   - foregroundPresentation: how notifications arriving while the app is in the foreground are shown
        ///     (default: as the delegate installed before Pushbutton's says, else not at all, as without a delegate).
        ///   - joinDeadline: how long a previously installed delegate may take before the system's completion
        ///     handler is called without it (keep it under the system's window of about 30 seconds).
        ///   - strings: the string table titles are read from first (default: the main bundle's
        ///     `PushbuttonNotifications` table in `locale`); a key it lacks keeps the manifest's translations.
        public init(
            center: UNUserNotificationCenter = .current(), locale: String? = AppLanguage.current,
            foregroundPresentation: ForegroundPresentation = ForegroundPresentation(),
            joinDeadline: Duration = .seconds(25), strings: StringTable? = nil
        ) {
            self.center = center
            self.locale = locale
            self.strings = strings ?? .bundle(localization: locale)
            presentation = foregroundPresentation
            deadline = joinDeadline
        }

        public func requestAuthorization(options: AuthorizationOptions) async throws -> Bool {
            try await withCheckedThrowingContinuation { continuation in
                center.requestAuthorization(options: UserNotificationsMapping.authorizationOptions(options)) {
                    granted, error in
                    if let error {
                        continuation.resume(throwing: error)
                    } else {
                        continuation.resume(returning: granted)
                    }
                }
            }
        }

        public func notificationCategories() async -> [Pushbutton.Category] {
            await withCheckedContinuation { continuation in
                center.getNotificationCategories { registered in
                    let pairs = registered.map { (UserNotificationsMapping.category(from: $0), $0) }
                    self.originals.withLock { originals in
                        originals = Dictionary(
                            pairs.map { ($0.0.identifier, (model: $0.0, object: $0.1)) }, uniquingKeysWith: { $1 })
                    }
                    continuation.resume(returning: pairs.map(\.0).sorted { $0.identifier < $1.identifier })
                }
            }
        }

        public func setNotificationCategories(_ categories: [Pushbutton.Category]) async {
            let originals = self.originals.withLock { $0 }
            let objects = categories.map { category -> UNNotificationCategory in
                if let original = originals[category.identifier], original.model == category { return original.object }
                return UserNotificationsMapping.category(strings.apply(to: category), locale: locale)
            }
            center.setNotificationCategories(Set(objects))
        }

        /// The system center: every bridge over it registers in turn with every other.
        public var categoryStore: ObjectIdentifier? { ObjectIdentifier(center) }

        /// The category as the system gives it back: titles resolved for ``locale``, icons (unreadable) gone.
        public func registeredForm(of category: Pushbutton.Category) -> Pushbutton.Category {
            UserNotificationsMapping.category(
                from: UserNotificationsMapping.category(strings.apply(to: category), locale: locale))
        }

        /// Schedules a local notification. Its `userInfo` becomes property-list values: keys whose value is `null`
        /// are left out (a property list has no null); a `null` inside an array is an error naming its path.
        public func add(_ request: LocalNotificationRequest) async throws {
            let content = UNMutableNotificationContent()
            content.title = request.title
            content.body = request.body
            content.categoryIdentifier = request.categoryIdentifier
            content.userInfo = try UserNotificationsMapping.propertyList(request.userInfo)
            let trigger = request.delay.map { delay -> UNNotificationTrigger in
                UNTimeIntervalNotificationTrigger(timeInterval: max(1, delay.seconds), repeats: false)
            }
            let system = UNNotificationRequest(identifier: request.identifier, content: content, trigger: trigger)
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                center.add(system) { error in
                    if let error { continuation.resume(throwing: error) } else { continuation.resume() }
                }
            }
        }

        public func removePendingNotificationRequests(withIdentifiers identifiers: [String]) async {
            center.removePendingNotificationRequests(withIdentifiers: identifiers)
        }

        public func removeDeliveredNotifications(withIdentifiers identifiers: [String]) async {
            center.removeDeliveredNotifications(withIdentifiers: identifiers)
        }

        /// The `UserNotificationCenter` requirement; ``installResponseHandler(_:)`` does the work, synchronously.
        public func setResponseHandler(_ handler: (any NotificationResponseHandler)?) async {
            installResponseHandler(handler)
        }

        /// Installs Pushbutton's delegate, synchronously, which forwards to the delegate installed before it (if
        /// any), and keeps it alive (the system holds its delegate weakly). `nil` restores the previous delegate.
        ///
        /// Call it in `application(_:didFinishLaunchingWithOptions:)`, before that returns: the system delivers
        /// the tap that launched the app to whichever delegate is set by then, and drops it if none is.
        public func installResponseHandler(_ handler: (any NotificationResponseHandler)?) {
            installedDelegate.withLock { installed in
                // Once Pushbutton's delegate is installed, the one before it stays the previous one (even none):
                // never Pushbutton's own, which would forward to itself.
                let previous: (any UNUserNotificationCenterDelegate)? =
                    if let installed { installed.previous } else { center.delegate }
                guard let handler else {
                    center.delegate = previous
                    installed = nil
                    return
                }
                let delegate = PushbuttonNotificationDelegate(
                    handler: handler, previous: previous, presentation: presentation, joinDeadline: deadline)
                installed = delegate
                center.delegate = delegate
            }
        }
    }
#endif
