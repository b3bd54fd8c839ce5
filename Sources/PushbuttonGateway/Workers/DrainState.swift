import Synchronization

/// Set once a stop (SIGTERM) begins: `/readyz` answers 503 from then on and the workers lease no more
/// (a batch leased as it began is given back to the queue at once instead of being sent).
final class DrainState: Sendable {
    private let draining = Atomic<Bool>(false)

    var isDraining: Bool { draining.load(ordering: .acquiring) }

    func begin() { draining.store(true, ordering: .releasing) }
}
