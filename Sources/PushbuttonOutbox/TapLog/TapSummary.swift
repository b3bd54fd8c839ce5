/// Counts and rates of taps, per category and button, like the click statistics push platforms show.
public struct TapSummary: Sendable, Hashable {
    /// One action's figures within its category.
    public struct ActionStats: Sendable, Hashable {
        /// The button identifier, or `(body)` / `(dismiss)`.
        public var action: String
        /// How many times it was chosen.
        public var count: Int
        /// Its share of the category's responses, 0…1.
        public var shareOfResponses: Double
        /// Its count per delivered notification of the category, 0…1 (when deliveries were recorded).
        public var rate: Double?
        /// The median time from delivery to the tap, in seconds.
        public var medianLatency: Double?
    }

    /// One category's figures.
    public struct CategoryStats: Sendable, Hashable {
        /// The category identifier.
        public var category: String
        /// Notifications recorded as delivered (0 when the app does not record deliveries).
        public var delivered: Int
        /// Responses of any kind (buttons, body taps, dismissals) to the category's notifications.
        public var responses: Int
        /// Each action's figures, most chosen first.
        public var actions: [ActionStats]
    }

    /// Each category's figures, most responded to first.
    public var categories: [CategoryStats]
    /// Responses across all categories.
    public var totalResponses: Int
    /// Deliveries recorded across all categories.
    public var totalDelivered: Int
}
