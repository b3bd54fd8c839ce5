import Foundation

/// The observer of the mock's answers (`MockAPNs.onAnswer`), set from any thread and read on the server's.
///
/// A non-generic box on purpose: kept in `Locked<(@Sendable (MockAnswer) -> Void)?>` and read through its
/// `inout` `withLock { $0 }`, the closure was written back wrapped in one more reabstraction thunk on every
/// read, until calling it overflowed the stack (after ~29,000 answers, red-team M5 in issue 32). Here the
/// stored property has the closure's own type, so reading it copies the closure as it is.
final class AnswerObserver: @unchecked Sendable {
    // Safe: `observer` is only reached under `lock`.
    private let lock = NSLock()
    private var observer: (@Sendable (MockAnswer) -> Void)?

    /// Replaces the observer (`nil`: none).
    func set(_ observer: (@Sendable (MockAnswer) -> Void)?) {
        lock.lock()
        defer { lock.unlock() }
        self.observer = observer
    }

    /// The observer now, if any.
    var current: (@Sendable (MockAnswer) -> Void)? {
        lock.lock()
        defer { lock.unlock() }
        return observer
    }
}
