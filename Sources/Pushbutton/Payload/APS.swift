/// The `aps` dictionary: what the system reads.
public struct APS: Sendable, Hashable {
    /// `alert`: what the notification shows (a plain string or a title/subtitle/body dictionary); `nil` for a
    /// silent push.
    public var alert: Alert?
    /// `badge`: the number on the app icon; 0 removes it, `nil` leaves it as it is.
    public var badge: Int?
    /// `sound`: the sound to play; `nil` plays none.
    public var sound: Sound?
    /// `thread-id`: groups notifications.
    public var threadID: String?
    /// The category whose buttons are shown. A category the device has not registered shows no buttons.
    public var category: String?
    /// `content-available: 1`: wakes the app in the background.
    public var contentAvailable: Bool
    /// `mutable-content: 1`: lets a notification service extension change the content.
    public var mutableContent: Bool
    /// `target-content-id`: the window to bring forward.
    public var targetContentID: String?
    /// `interruption-level`: how insistently iOS presents it (`time-sensitive` breaks through Focus); `nil` means
    /// the system's default, `active`.
    public var interruptionLevel: InterruptionLevel?
    /// `relevance-score`, from 0 to 1: ranks notifications in a summary.
    public var relevanceScore: Double?
    /// `filter-criteria`: matched against the Focus filter.
    public var filterCriteria: String?
    /// The Live Activity keys.
    public var liveActivity: LiveActivityFields
    /// Any other `aps` key, kept as is.
    public var extra: [String: JSONValue]

    /// Creates an `aps` dictionary; every key is absent (or `false`) unless given.
    public init(
        alert: Alert? = nil, badge: Int? = nil, sound: Sound? = nil, threadID: String? = nil, category: String? = nil,
        contentAvailable: Bool = false, mutableContent: Bool = false, targetContentID: String? = nil,
        interruptionLevel: InterruptionLevel? = nil, relevanceScore: Double? = nil, filterCriteria: String? = nil,
        liveActivity: LiveActivityFields = LiveActivityFields(), extra: [String: JSONValue] = [:]
    ) {
        self.alert = alert
        self.badge = badge
        self.sound = sound
        self.threadID = threadID
        self.category = category
        self.contentAvailable = contentAvailable
        self.mutableContent = mutableContent
        self.targetContentID = targetContentID
        self.interruptionLevel = interruptionLevel
        self.relevanceScore = relevanceScore
        self.filterCriteria = filterCriteria
        self.liveActivity = liveActivity
        self.extra = extra
    }
}
