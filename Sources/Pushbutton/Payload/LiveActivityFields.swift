/// The `aps` keys of a Live Activity update.
public struct LiveActivityFields: Sendable, Hashable {
    /// `timestamp`: when the update was made (epoch seconds).
    public var timestamp: Int64?
    /// `event`: `start`, `update` or `end`.
    public var event: String?
    /// `content-state`: the activity's dynamic data.
    public var contentState: JSONValue?
    /// `stale-date` (epoch seconds).
    public var staleDate: Int64?
    /// `dismissal-date` (epoch seconds).
    public var dismissalDate: Int64?
    /// `attributes-type`: the activity's attributes type name (for `start`).
    public var attributesType: String?
    /// `attributes` (for `start`).
    public var attributes: JSONValue?

    /// Creates the Live Activity keys; every key is absent unless given.
    public init(
        timestamp: Int64? = nil, event: String? = nil, contentState: JSONValue? = nil, staleDate: Int64? = nil,
        dismissalDate: Int64? = nil, attributesType: String? = nil, attributes: JSONValue? = nil
    ) {
        self.timestamp = timestamp
        self.event = event
        self.contentState = contentState
        self.staleDate = staleDate
        self.dismissalDate = dismissalDate
        self.attributesType = attributesType
        self.attributes = attributes
    }

    /// Whether no Live Activity key is set.
    public var isEmpty: Bool { self == LiveActivityFields() }
}
