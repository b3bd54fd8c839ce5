import Foundation

/// A value guarded by a lock, for state shared between threads.
///
/// Sendable only when its value is, as `NIOLockedValueBox` is: the lock orders the accesses, but handing a
/// non-Sendable value (a class without its own synchronisation) to another thread through it would still let
/// both threads reach the same object outside the lock. (`Synchronization.Mutex` would do, but needs iOS 18.)
package final class Locked<Value> {
    private let lock = NSLock()
    private var value: Value

    package init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with exclusive access to the value.
    package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}

/// `@unchecked` because the compiler cannot see the lock: the value is only ever reached inside `withLock`, which
/// holds `lock` for the whole access, and the value itself may cross threads because it is `Sendable`.
extension Locked: @unchecked Sendable where Value: Sendable {}
