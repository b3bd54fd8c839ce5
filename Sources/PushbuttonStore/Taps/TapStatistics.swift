/// The raw counts behind `GET /v1/apps/{app}/stats`: outcomes of the notifications in scope, and the taps joined
/// to them. Rates are the gateway's business.
public struct TapStatistics: Sendable, Hashable {
    /// Recipients by final state (queued and leased ones have no outcome yet and are not counted).
    public var deliveries: [DeliveryState: Int]
    /// Recipients APNs answered `410` for.
    public var deadTokens: Int
    /// Taps per button identifier.
    public var buttons: [String: Int]
    /// Taps on the notification's body.
    public var body: Int
    /// Dismissals (reported by categories with `customDismissAction` only).
    public var dismissals: Int
    /// Responses made with the app in the foreground, and in the background.
    public var foreground: Int
    /// Responses made with the app in the background (background buttons, dismissals).
    public var background: Int
    /// Delivery to tap (buttons and body, not dismissals), by the devices' clocks; `nil` without any.
    public var medianLatencyMilliseconds: Double?
    /// The 90th percentile, nearest rank.
    public var p90LatencyMilliseconds: Double?
    /// Notifications devices reported received (display receipts, see ``ReceiptStore``); set by the gateway.
    public var received = 0

    /// Statistics with every count given (all zero by default).
    public init(
        deliveries: [DeliveryState: Int] = [:], deadTokens: Int = 0, buttons: [String: Int] = [:], body: Int = 0,
        dismissals: Int = 0, foreground: Int = 0, background: Int = 0, medianLatencyMilliseconds: Double? = nil,
        p90LatencyMilliseconds: Double? = nil
    ) {
        self.deliveries = deliveries
        self.deadTokens = deadTokens
        self.buttons = buttons
        self.body = body
        self.dismissals = dismissals
        self.foreground = foreground
        self.background = background
        self.medianLatencyMilliseconds = medianLatencyMilliseconds
        self.p90LatencyMilliseconds = p90LatencyMilliseconds
    }

    /// Every response: button taps, body taps and dismissals.
    public var responses: Int { buttons.values.reduce(0, +) + body + dismissals }
}
