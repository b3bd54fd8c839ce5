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
