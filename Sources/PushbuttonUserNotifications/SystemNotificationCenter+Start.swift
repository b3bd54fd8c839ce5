// tvOS has no notification actions, categories or responses: this module is empty there.
#if !os(tvOS)
    import Foundation
    import Pushbutton
    import PushbuttonReceiver

    extension SystemNotificationCenter {
        /// Sets the app up in one call: installs `router` as the handler of every response, synchronously, then in
        /// a task registers `manifest`'s categories (merging with what is registered), asks APNs for a device token
        /// and asks the user for permission (see ``NotificationStartup``).
        ///
        /// Call it in `application(_:didFinishLaunchingWithOptions:)`, before that returns: the tap that launched
        /// the app goes to whichever delegate is set by then. Forward the token from
        /// `application(_:didRegisterForRemoteNotificationsWithDeviceToken:)` to
        /// ``didRegisterForRemoteNotifications(withDeviceToken:)``, which hands it to `deviceTokens` (the gateway
        /// client, say).
        ///
        /// - Parameters:
        ///   - authorization: what to ask the user for (default: alerts, sounds, badges); ``AuthorizationRequest/none``
        ///     to ask later, yourself.
        ///   - remoteNotifications: who asks APNs for a token (default: `UIApplication.shared` on iOS; `nil` for an
        ///     app that only shows local notifications).
        ///   - deviceTokens: who registers the token (`GatewayClient` from PushbuttonOutbox, or your own).
        /// - Returns: the set-up in progress, for an app that wants its ``StartReport``; there is no need to wait.
        @available(iOSApplicationExtension, unavailable)
        @available(macCatalystApplicationExtension, unavailable)
        @discardableResult
        public func start(
            routingTo router: ResponseRouter, registering manifest: Manifest,
            authorization: AuthorizationRequest = .standard,
            remoteNotifications: (any RemoteNotificationRegistration)? = SystemNotificationCenter
                .defaultRemoteNotifications,
            deviceTokens: (any DeviceTokenHandler)? = nil
        ) -> Task<StartReport, Never> {
            installResponseHandler(router)
            let startup = NotificationStartup(
                center: self, manifest: manifest, authorization: authorization,
                remoteNotifications: remoteNotifications, deviceTokens: deviceTokens)
            setStartup(startup)
            return Task { await startup.run() }
        }

        /// The two-line set-up: makes the router (over this center, delivering callbacks to `backend` and opening
        /// links with `urlOpener`), starts as ``start(routingTo:registering:authorization:remoteNotifications:deviceTokens:)``
        /// does, and returns the router, so the app registers its actions on it.
        @available(iOSApplicationExtension, unavailable)
        @available(macCatalystApplicationExtension, unavailable)
        @discardableResult
        public func start(
            registering manifest: Manifest, backend: (any BackendDelivery)? = nil, urlOpener: (any URLOpener)? = nil,
            system: (any SystemServices)? = nil, authorization: AuthorizationRequest = .standard,
            remoteNotifications: (any RemoteNotificationRegistration)? = SystemNotificationCenter
                .defaultRemoteNotifications,
            deviceTokens: (any DeviceTokenHandler)? = nil
        ) -> ResponseRouter {
            let router = ResponseRouter(center: self, backend: backend, urlOpener: urlOpener, system: system)
            start(
                routingTo: router, registering: manifest, authorization: authorization,
                remoteNotifications: remoteNotifications, deviceTokens: deviceTokens)
            return router
        }

        /// Hands the token APNs gave the app to the `deviceTokens` given to `start`; call it from
        /// `application(_:didRegisterForRemoteNotificationsWithDeviceToken:)`.
        ///
        /// - Returns: the hand-off, whose error (if any) is the handler's; there is no need to wait for it.
        @discardableResult
        public func didRegisterForRemoteNotifications(withDeviceToken deviceToken: Data) -> Task<Void, any Error> {
            let startup = self.startup
            return Task { try await startup?.deviceTokenReceived(deviceToken) }
        }

        /// `UIApplication.shared` on iOS (and Linux's stand-in), where apps register with APNs; `nil` elsewhere.
        @available(iOSApplicationExtension, unavailable)
        @available(macCatalystApplicationExtension, unavailable)
        public static var defaultRemoteNotifications: (any RemoteNotificationRegistration)? {
            #if os(iOS) || os(visionOS) || !canImport(UserNotifications)
                UIKitRemoteNotifications()
            #else
                nil
            #endif
        }
    }
#endif
