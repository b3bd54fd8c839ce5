import Foundation
import PushbuttonSupport

/// Tags persisted in `UserDefaults`, as a sorted array of strings under one key.
///
/// `UserDefaults` is documented thread-safe; this type holds only the suite's name, the key and a lock, and
/// opens the suite per call, so it is `Sendable`. The lock serializes read-modify-write, so concurrent taps
/// never drop each other's change.
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

    public func apply(_ change: TagChange) async throws {
        lock.withLock { _ in
            let defaults = defaults
            let tags = change.applied(to: Set(defaults.stringArray(forKey: key) ?? []))
            defaults.set(tags.sorted(), forKey: key)
        }
    }
}
