/// Where `pushbutton.add_tag` and `pushbutton.remove_tag` keep the device's tags.
///
/// The default is local (``UserDefaultsTagStore`` on Apple platforms, ``InMemoryTagStore`` elsewhere). An app
/// whose backend segments by tag passes a store that also tells the backend (or Pushbutton's gateway); the
/// router hands it tags already checked with `BuiltinAction.tagProblem(_:)`.
public protocol TagStore: Sendable {
    /// The device's tags now.
    func tags() async throws -> Set<String>
    /// Adds `tags` (those already there stay once).
    func add(_ tags: [String]) async throws
    /// Removes `tags` (those not there are ignored).
    func remove(_ tags: [String]) async throws
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
