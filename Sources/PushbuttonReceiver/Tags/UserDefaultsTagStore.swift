import Foundation

/// Tags persisted in `UserDefaults`, as a sorted array of strings under one key.
///
/// `UserDefaults` is documented thread-safe; this type holds only the suite's name and the key, and opens the
/// suite per call, so it is `Sendable` without locks. Changes from concurrent taps are serialized by the lock
/// around read-modify-write.
public final class UserDefaultsTagStore: TagStore {
    /// The suite (`nil`: the app's standard defaults).
    public let suiteName: String?
    public let key: String
    private let lock = Locked(())

    public init(suiteName: String? = nil, key: String = "pushbutton.tags") {
        self.suiteName = suiteName
        self.key = key
    }

    private var defaults: UserDefaults { suiteName.flatMap(UserDefaults.init(suiteName:)) ?? .standard }

    public func tags() async throws -> Set<String> {
        lock.withLock { _ in Set(defaults.stringArray(forKey: key) ?? []) }
    }

    public func add(_ tags: [String]) async throws { change { $0.formUnion(tags) } }

    public func remove(_ tags: [String]) async throws { change { $0.subtract(tags) } }

    private func change(_ body: (inout Set<String>) -> Void) {
        lock.withLock { _ in
            let defaults = defaults
            var tags = Set(defaults.stringArray(forKey: key) ?? [])
            body(&tags)
            defaults.set(tags.sorted(), forKey: key)
        }
    }
}
