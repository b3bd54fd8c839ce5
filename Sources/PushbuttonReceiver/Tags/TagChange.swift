/// One tap's change to the device's tags.
public struct TagChange: Sendable, Hashable {
    public var added: [String]
    public var removed: [String]
    /// The same for every attempt of the same tap (notification, button, action position), as a callback's.
    public var idempotencyKey: String
    /// Which notification and button produced it.
    public var notificationIdentifier: String
    public var actionIdentifier: String

    public init(
        added: [String] = [], removed: [String] = [], idempotencyKey: String, notificationIdentifier: String = "",
        actionIdentifier: String = ""
    ) {
        self.added = added
        self.removed = removed
        self.idempotencyKey = idempotencyKey
        self.notificationIdentifier = notificationIdentifier
        self.actionIdentifier = actionIdentifier
    }

    /// `tags` with the change applied.
    public func applied(to tags: Set<String>) -> Set<String> { tags.union(added).subtracting(removed) }
}
