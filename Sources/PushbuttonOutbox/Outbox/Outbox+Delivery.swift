import Foundation
import Pushbutton
import PushbuttonReceiver
import PushbuttonSQLite
import PushbuttonSupport

extension Outbox {
    /// What one attempt came to.
    enum AttemptOutcome: Sendable, Hashable {
        case delivered
        /// `final`: not worth retrying (a refusal); otherwise retried with backoff.
        case failed(OutboxFailure, final: Bool)
    }

    /// Sends `entries` (due, oldest first) with up to ``OutboxOptions/maximumConcurrentRequests`` requests
    /// open, never two of the same notification at once.
    ///
    /// Each entry is claimed (state `in_flight`, the attempt counted) in a commit before it is sent, so a
    /// crash mid-send is visible, and its outcome is committed after. Commits are grouped: whenever requests
    /// finish, their outcomes and the claims of the entries that take their places are one transaction. These
    /// commits are not fsynced (the taps themselves were, at enqueue): a killed process keeps them, and a
    /// power loss can only undo some, which sends those entries again with their idempotency keys, as
    /// at-least-once delivery allows. A drain thus spends its time on HTTP, not on the disk.
    func send(_ entries: [OutboxEntry], sender: any OutboxSender, endpoint: String?, report: inout DrainReport)
        async throws(OutboxError)
    {
        guard !entries.isEmpty else { return }
        let limit = max(1, options.maximumConcurrentRequests)
        let finished = Locked<[(entry: OutboxEntry, outcome: AttemptOutcome)]>([])
        var failure: OutboxError?
        await withTaskGroup(of: Void.self) { group in
            var waiting = entries[...]
            var busy = Set<String>()
            var inFlight = 0
            var done: [(entry: OutboxEntry, outcome: AttemptOutcome)] = []
            while true {
                for item in done { item.entry.notificationIdentifier.map { _ = busy.remove($0) } }
                let starting = failure == nil ? Self.next(from: &waiting, count: limit - inFlight, busy: &busy) : []
                var claimed: [OutboxEntry] = []
                do throws(OutboxError) {
                    claimed = try commit(outcomes: done, claiming: starting, report: &report)
                } catch {
                    failure = error
                }
                let claimedIDs = Set(claimed.map(\.id))
                for entry in starting where !claimedIDs.contains(entry.id) {
                    entry.notificationIdentifier.map { _ = busy.remove($0) }
                }
                for entry in claimed {
                    inFlight += 1
                    group.addTask {
                        let outcome = await Self.attempt(entry, sender: sender, endpoint: endpoint)
                        finished.withLock { $0.append((entry, outcome)) }
                    }
                }
                if inFlight == 0 { break }
                _ = await group.next()
                done = finished.withLock { results in
                    defer { results = [] }
                    return results
                }
                inFlight -= done.count
            }
        }
        if let failure { throw failure }
    }

    /// Up to `count` entries from the front of `waiting` whose notification has nothing in flight (marked
    /// busy now); the others stay, in order.
    private static func next(from waiting: inout ArraySlice<OutboxEntry>, count: Int, busy: inout Set<String>)
        -> [OutboxEntry]
    {
        guard count > 0 else { return [] }
        var starting: [OutboxEntry] = []
        var deferred: [OutboxEntry] = []
        while starting.count < count, let entry = waiting.popFirst() {
            if let notification = entry.notificationIdentifier {
                guard busy.insert(notification).inserted else {
                    deferred.append(entry)
                    continue
                }
            }
            starting.append(entry)
        }
        waiting = ArraySlice(deferred + waiting)
        return starting
    }

    /// One transaction: the outcomes of finished attempts, then the claims of the entries about to be sent
    /// (those still pending: another worker cannot have them, but a purge can). Returns what was claimed.
    private func commit(
        outcomes: [(entry: OutboxEntry, outcome: AttemptOutcome)], claiming entries: [OutboxEntry],
        report: inout DrainReport
    ) throws(OutboxError) -> [OutboxEntry] {
        guard !outcomes.isEmpty || !entries.isEmpty else { return [] }
        let database = database
        let time = now().timeIntervalSince1970
        let leaseUntil = time + options.requestTimeout.seconds
        var counts = DrainReport()
        let claimed = try storage { () throws(SQLiteError) -> [OutboxEntry] in
            try database.transaction(durable: false) { () throws(SQLiteError) -> [OutboxEntry] in
                for (entry, outcome) in outcomes { try record(entry, outcome, at: time, counts: &counts) }
                var claimed: [OutboxEntry] = []
                for entry in entries {
                    try database.query(
                        """
                        UPDATE outbox SET state = 'in_flight', attempts = attempts + 1, lease_until = ?
                        WHERE id = ? AND state = 'pending'
                        """, [.real(leaseUntil), .integer(entry.id)])
                    if database.changes == 1 { claimed.append(entry) }
                }
                return claimed
            }
        }
        // Counted once committed: a rolled-back transaction recorded nothing.
        report.delivered += counts.delivered
        report.retried += counts.retried
        report.deadLettered += counts.deadLettered
        report.attempted += claimed.count
        return claimed
    }

    private func record(_ entry: OutboxEntry, _ outcome: AttemptOutcome, at time: Double, counts: inout DrainReport)
        throws(SQLiteError)
    {
        let attempts = entry.attempts + 1
        guard case .failed(let failure, let final) = outcome else {
            try database.query(
                """
                UPDATE outbox SET state = 'delivered', delivered_at = ?, lease_until = NULL, last_error = NULL,
                    last_cause = NULL, last_status = NULL
                WHERE id = ?
                """, [.real(time), .integer(entry.id)])
            counts.delivered += 1
            return
        }
        let cause: [SQLiteValue] = [.text(failure.code.name), failure.status.map { .integer(Int64($0)) } ?? .null]
        if final || attempts >= options.maximumAttempts {
            let reason = final ? failure.message : "gave up after \(attempts) attempts; last error: \(failure.message)"
            try database.query(
                """
                UPDATE outbox SET state = 'dead', lease_until = NULL, last_error = ?, last_cause = ?, last_status = ?
                WHERE id = ?
                """, [.text(reason)] + cause + [.integer(entry.id)])
            counts.deadLettered += 1
            return
        }
        try database.query(
            """
            UPDATE outbox SET state = 'pending', lease_until = NULL, last_error = ?, last_cause = ?, last_status = ?,
                next_attempt_at = ?
            WHERE id = ?
            """,
            [.text(failure.message)] + cause + [
                .real(time + backoff(afterAttempt: attempts).seconds), .integer(entry.id),
            ])
        counts.retried += 1
    }

    /// Sends one claimed entry and classifies the answer.
    private static func attempt(_ entry: OutboxEntry, sender: any OutboxSender, endpoint: String?) async
        -> AttemptOutcome
    {
        var headers = ["Idempotency-Key": entry.idempotencyKey]
        if entry.body != nil { headers["Content-Type"] = "application/json" }
        let request = OutgoingRequest(
            url: endpoint.map { rebase(entry.url, onto: $0) } ?? entry.url, method: entry.method, headers: headers,
            body: entry.body.map { Data(JSONWriter.compact($0)) })
        do {
            let status = try await sender.send(request)
            switch status {
            case 200..<300: return .delivered
            case 300..<400:
                // Never followed and never a delivery: a 302 would turn the POST into a GET whose 200 is
                // not the backend's acknowledgement, a 307 would re-post elsewhere. Retried, then dead-lettered.
                let message = "HTTP \(status): a redirect, which the outbox does not follow"
                return .failed(OutboxFailure(.redirect, status: status, message: message), final: false)
            case 408, 425, 429, 500..<600:
                return .failed(OutboxFailure(.retryableStatus, status: status, message: "HTTP \(status)"), final: false)
            default:
                let message = "HTTP \(status): the server refused the request"
                return .failed(OutboxFailure(.refused, status: status, message: message), final: true)
            }
        } catch {
            return .failed(OutboxFailure(.network, message: "\(error)"), final: false)
        }
    }
}
