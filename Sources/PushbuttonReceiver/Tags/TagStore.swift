/// Where `pushbutton.add_tag` and `pushbutton.remove_tag` keep the device's tags.
///
/// The default is local (``UserDefaultsTagStore`` on Apple platforms, ``InMemoryTagStore`` elsewhere). An app
/// whose backend or gateway segments by tag uses ``BackendTagStore``, which also sends each change through the
/// app's ``BackendDelivery`` (the outbox), or a store of its own. The router hands it tags already checked with
/// `BuiltinAction.tagProblem(_:)`.
public protocol TagStore: Sendable {
    /// The device's tags now.
    func tags() async throws -> Set<String>
    /// Adds `change.added` and removes `change.removed` (adding a tag already there, or removing one that is
    /// not, changes nothing).
    func apply(_ change: TagChange) async throws
}

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

/// The tag store the router uses when the app gives none: persisted in `UserDefaults` on Apple platforms,
/// in memory on Linux (where there is no app to persist for).
public enum DefaultTagStore {
    public static func make() -> any TagStore {
        #if canImport(Darwin)
            UserDefaultsTagStore()
        #else
            InMemoryTagStore()
        #endif
    }
}
