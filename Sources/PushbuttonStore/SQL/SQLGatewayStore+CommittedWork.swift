import Foundation
import PushbuttonSupport

extension SQLGatewayStore {
    /// Wakes `wake` after each intake's commit in this process and, on PostgreSQL, each other process's (a
    /// `LISTEN` connection runs while anyone observes); see ``GatewayStore/observeCommittedWork(_:)``.
    public func observeCommittedWork(_ wake: @escaping @Sendable () -> Void) -> WorkObservation {
        committedWork.observe(wake)
    }

    /// Hands a single notification committed while a worker of this process waits idle to that worker, leased
    /// in the intake's transaction (``LeaseHandOff``).
    public func handOffLeases(to handOff: LeaseHandOff) {
        self.handOff.withLock { $0 = handOff }
    }

    /// After a commit that made recipients due: on PostgreSQL a `NOTIFY` to every other process's listener,
    /// sent soon in a transaction of its own (``PostgresNotifier``); nothing on SQLite (one process).
    func notifyOtherProcesses() {
        notifier?.notify(CommittedWork.channel, payload: committedWork.origin)
    }

    /// After an intake's commit: wakes this process's observers, and tells the other processes'.
    func committedWorkHere() {
        committedWork.committed()
        notifyOtherProcesses()
    }
}
