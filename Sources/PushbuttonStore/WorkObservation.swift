import PushbuttonSupport

/// An observer of committed work (``GatewayStore/observeCommittedWork(_:)``): ``cancel()`` stops it, and
/// with the last one the store's `LISTEN` connection closes.
public final class WorkObservation: Sendable {
    private let stop: Locked<(@Sendable () -> Void)?>

    /// `stop` runs once, on the first ``cancel()``.
    public init(stop: @escaping @Sendable () -> Void) {
        self.stop = Locked(stop)
    }

    /// Stops observing; returns once the listener (if this was the last observer) has stopped.
    public func cancel() {
        let stop = self.stop.withLock { stop -> (@Sendable () -> Void)? in
            defer { stop = nil }
            return stop
        }
        stop?()
    }
}
