// BGTaskScheduler is API of iOS apps (and Mac Catalyst, visionOS), not of app extensions: elsewhere on Apple
// platforms this file is empty. On Linux it compiles against the stand-in, so it is built and tested here.
#if os(iOS) || os(visionOS) || !canImport(UserNotifications)
    import Foundation
    import PushbuttonReceiver

    #if canImport(UserNotifications)
        import BackgroundTasks
    #else
        import UserNotificationsStandIn
    #endif

    /// A `BackgroundTaskScheduler` (PushbuttonReceiver) over `BGTaskScheduler.shared`: app-refresh tasks
    /// (`BGAppRefreshTask`, about 30 seconds), or processing tasks (`BGProcessingTask`, minutes, when the device is
    /// idle) that need the network. Give it to `OutboxRefresh` (PushbuttonOutbox).
    ///
    /// The app's Info.plist lists each identifier under `BGTaskSchedulerPermittedIdentifiers` and has `fetch`
    /// (app refresh) or `processing` in `UIBackgroundModes`; without them `register` answers `false` and
    /// `schedule` throws.
    @available(iOSApplicationExtension, unavailable)
    @available(macCatalystApplicationExtension, unavailable)
    public struct SystemBackgroundTasks: BackgroundTaskScheduler {
        /// Which kind of task the runs are.
        public enum Kind: Sendable, Hashable {
            /// `BGAppRefreshTaskRequest`: short and frequent.
            case appRefresh
            /// `BGProcessingTaskRequest` with `requiresNetworkConnectivity`: longer, when the device is idle.
            case processing
        }

        /// The kind of request ``schedule(_:earliestBegin:)`` submits.
        public let kind: Kind

        /// - Parameter kind: app refresh (default) or processing.
        public init(kind: Kind = .appRefresh) { self.kind = kind }

        /// Registers `launch` with `BGTaskScheduler.shared` (call before the app finishes launching).
        public func register(_ identifier: String, launch: @escaping @Sendable (any BackgroundTaskRun) -> Void) -> Bool
        {
            BGTaskScheduler.shared.register(forTaskWithIdentifier: identifier, using: nil) { task in
                launch(SystemBackgroundTaskRun(task))
            }
        }

        /// Submits a request for the task `identifier`, replacing a pending one.
        public func schedule(_ identifier: String, earliestBegin: Date?) throws {
            let request: BGTaskRequest
            switch kind {
            case .appRefresh:
                request = BGAppRefreshTaskRequest(identifier: identifier)
            case .processing:
                let processing = BGProcessingTaskRequest(identifier: identifier)
                processing.requiresNetworkConnectivity = true
                request = processing
            }
            request.earliestBeginDate = earliestBegin
            try BGTaskScheduler.shared.submit(request)
        }
    }
#endif
