import Foundation

/// A value guarded by a lock, for state shared between threads.
///
/// `@unchecked Sendable` is safe here because the value is only ever reached inside `withLock`, which
/// holds `lock` for the whole access. (`Synchronization.Mutex` would do, but needs iOS 18.)
public final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    public init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with exclusive access to the value.
    public func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
