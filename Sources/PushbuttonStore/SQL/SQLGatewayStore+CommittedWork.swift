import Foundation

extension SQLGatewayStore {
    /// Wakes `wake` after each intake's commit in this process and, on PostgreSQL, each other process's (a
    /// `LISTEN` connection runs while anyone observes); see ``GatewayStore/observeCommittedWork(_:)``.
    public func observeCommittedWork(_ wake: @escaping @Sendable () -> Void) -> WorkObservation {
        committedWork.observe(wake)
    }

    /// Inside an intake's transaction, before its commit: on PostgreSQL a `NOTIFY` that PostgreSQL sends at
    /// the commit (and drops on a rollback) to every process's listener; nothing on SQLite (one process).
    func notifyCommittedWork(_ connection: any SQLConnection) throws(StoreError) {
        guard dialect == .postgres else { return }
        _ = try connection.query("SELECT pg_notify(?, ?)", [.text(CommittedWork.channel), .text(committedWork.origin)])
    }

    /// After an intake's commit: wakes this process's observers.
    func committedWorkHere() {
        committedWork.committed()
    }
}
