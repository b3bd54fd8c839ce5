import Foundation
import PushbuttonStore

/// The services the API routes and the console call, over one store: they return values or throw a
/// ``GatewayError``; the routes choose the status and render.
struct GatewayServices: Sendable {
    let store: any GatewayStore
    let apps: [String: AppRuntime]
    let devices: DeviceIntake
    let notifications: NotificationIntake
    let campaigns: CampaignIntake
    let taps: TapService
    let receipts: ReceiptService
    let tags: DeviceTagService
    let segments: SegmentService
    /// Experiments' reports and decisions (issue 36).
    let experiments: ExperimentService
    /// Requests waiting for their notification's outcomes (`wait_seconds`).
    let waiters: OutcomeWaiters
    let now: @Sendable () -> Date

    init(
        store: any GatewayStore, apps: [String: AppRuntime], maximumRecipients: Int, metrics: GatewayMetrics,
        now: @escaping @Sendable () -> Date, waiters: OutcomeWaiters = OutcomeWaiters()
    ) {
        self.waiters = waiters
        self.store = store
        self.apps = apps
        self.now = now
        devices = DeviceIntake(store: store, now: now)
        notifications = NotificationIntake(
            store: store, maximumRecipients: maximumRecipients, metrics: metrics, now: now)
        campaigns = CampaignIntake(notifications: notifications)
        receipts = ReceiptService(store: store, now: now)
        taps = TapService(store: store, apps: apps, now: now, receipts: receipts)
        tags = DeviceTagService(store: store, now: now)
        segments = notifications.segments
        experiments = ExperimentService(campaigns: campaigns, apps: apps)
    }
}
