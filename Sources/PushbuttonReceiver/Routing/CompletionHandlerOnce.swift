import PushbuttonSupport

/// Wraps the system's completion handler so it runs exactly once, whatever the callers do.
///
/// The first ``call()`` runs the handler and drops it; later calls find nothing to run. A second call
/// of the system's handler (which crashes on iOS) is therefore impossible by construction.
public final class CompletionHandlerOnce: Sendable {
    private let handler: Locked<(@Sendable () -> Void)?>

    public init(_ handler: @escaping @Sendable () -> Void) {
        self.handler = Locked(handler)
    }

    /// Runs the handler if nobody has; returns whether this call ran it.
    @discardableResult
    public func call() -> Bool {
        guard
            let handler = handler.withLock({ stored -> (@Sendable () -> Void)? in
                defer { stored = nil }
                return stored
            })
        else { return false }
        handler()
        return true
    }

    /// Whether the handler has run.
    public var hasBeenCalled: Bool { handler.withLock { $0 == nil } }
}
