// tvOS has no notification actions, categories or responses: this module is empty there.
#if !os(tvOS)
    import Pushbutton
    import PushbuttonReceiver

    extension SystemNotificationCenter {
        /// Sets the app up in one call: installs `router` as the handler of every response, synchronously, then
        /// registers `manifest`'s categories (merging with what is registered) in a task.
        ///
        /// Call it in `application(_:didFinishLaunchingWithOptions:)`, before that returns: the tap that launched
        /// the app goes to whichever delegate is set by then. Installing and registering in one call means the
        /// step that routes taps cannot be forgotten, nor come too late.
        ///
        /// ```swift
        /// let center = SystemNotificationCenter()
        /// center.start(routingTo: ResponseRouter(center: center, backend: outbox), registering: manifest)
        /// ```
        ///
        /// - Returns: the registration, for an app that wants its ``RegistrationReport``; there is no need to
        ///   wait for it.
        @discardableResult
        public func start(routingTo router: ResponseRouter, registering manifest: Manifest) -> Task<
            RegistrationReport, Never
        > {
            installResponseHandler(router)
            let registrar = CategoryRegistrar(center: self)
            return Task { await registrar.register(manifest) }
        }
    }
#endif
