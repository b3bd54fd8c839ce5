import Foundation

extension SQLGatewayStore {
    /// Calls `heard` with the notifications whose outcomes another process recorded, for those a request
    /// waits on (PostgreSQL: a `LISTEN` connection runs while anyone observes); see
    /// ``GatewayStore/observeRecordedOutcomes(_:)``.
    public func observeRecordedOutcomes(_ heard: @escaping @Sendable (_ notifications: [String]?) -> Void)
        -> WorkObservation
    {
        outcomeNotices.observe(heard)
    }

    /// After an outcome transaction's commit: on PostgreSQL a `NOTIFY` naming the notifications of the recorded
    /// `results` a request waits on (their `wake_on_outcome`, read with their headers at the lease), sent in a
    /// transaction of its own (``PostgresNotifier``: one inside the recording would serialise the recorders'
    /// commits); nothing when none is waited on (a campaign's outcomes) and nothing on SQLite (one process: the
    /// recorder wakes the requests itself).
    func notifyRecordedOutcomes(_ results: [CompletedDelivery], recorded: [Bool]) {
        guard let notifier else { return }
        var ids: [String] = []
        var last: String?
        for index in results.indices where recorded[index] && results[index].delivery.notificationID != last {
            let id = results[index].delivery.notificationID
            last = id
            if headers.wakesWaiters(id), !ids.contains(id) { ids.append(id) }
        }
        for payload in OutcomeNotices.payloads(origin: outcomeNotices.origin, ids: ids) {
            notifier.notify(OutcomeNotices.channel, payload: payload)
        }
    }
}
