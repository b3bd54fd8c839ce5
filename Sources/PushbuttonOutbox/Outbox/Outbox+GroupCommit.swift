import Foundation
import Pushbutton
import PushbuttonReceiver
import PushbuttonSQLite
import PushbuttonSupport

extension Outbox {
    /// Stores a backend request from the router (``BackendDelivery``); returns once it is durable.
    ///
    /// Taps that arrive while a commit is in progress are committed together in the next one (group commit:
    /// one fsync for all of them); each caller still returns only once its own tap is on disk, with its own
    /// outcome.
    public func deliver(_ request: BackendRequest) async throws {
        _ = try await withCheckedThrowingContinuation { continuation in
            pendingGroup.append((request, continuation))
            guard !groupCommitting else { return }
            groupCommitting = true
            Task { await self.commitPendingGroups() }
        }
    }

    /// Commits what ``deliver(_:)`` collected, group after group, until nothing waits.
    private func commitPendingGroups() async {
        while !pendingGroup.isEmpty {
            let group = pendingGroup
            pendingGroup = []
            let results = enqueue(contentsOf: group.map(\.request))
            for (waiter, result) in zip(group, results) {
                waiter.continuation.resume(with: result.mapError { $0 as any Error })
            }
            // Lets the taps that arrived during this commit join the next group.
            await Task.yield()
        }
        groupCommitting = false
    }

    /// Stores every request in one durable transaction (one fsync for the group), each with its own outcome:
    /// one that is refused (an invalid header, a full outbox, a statement that fails) is rolled back alone,
    /// and the others are stored. If the transaction itself fails, each request is tried in a transaction of
    /// its own, so one cause fails only its own request. Duplicates within the group are stored once.
    public func enqueue(contentsOf requests: [BackendRequest]) -> [Result<EnqueueResult, OutboxError>] {
        var results: [Result<EnqueueResult, OutboxError>?] = requests.map { request in
            do throws(OutboxError) {
                try Self.check(request)
                return nil
            } catch {
                return .failure(error)
            }
        }
        let valid = results.indices.filter { results[$0] == nil }
        guard !valid.isEmpty else { return results.compactMap { $0 } }
        let cached = waitingCache
        do throws(OutboxError) {
            let outcomes = try storage { () throws(SQLiteError) -> [Result<EnqueueResult, OutboxError>] in
                try database.transaction { () throws(SQLiteError) -> [Result<EnqueueResult, OutboxError>] in
                    let version = try database.dataVersion()
                    var waiting = try waitingCount(cached: cached, dataVersion: version)
                    let time = now().timeIntervalSince1970
                    var outcomes: [Result<EnqueueResult, OutboxError>] = []
                    for index in valid {
                        do throws(SQLiteError) {
                            outcomes.append(
                                try database.savepoint { () throws(SQLiteError) in
                                    try insert(requests[index], at: time, waiting: &waiting)
                                })
                        } catch  where database.isInTransaction {
                            outcomes.append(.failure(.storage(error)))
                        }
                    }
                    // Set after `storage` cleared it, kept only if the commit succeeds (below).
                    pendingWaitingCache = (waiting, version)
                    return outcomes
                }
            }
            waitingCache = pendingWaitingCache
            for (index, outcome) in zip(valid, outcomes) { results[index] = outcome }
        } catch {
            for index in valid {
                results[index] = valid.count == 1 ? .failure(error) : enqueue(contentsOf: [requests[index]])[0]
            }
        }
        return results.compactMap { $0 }
    }

    /// Entries waiting, from the cache while no other connection has committed since it was taken.
    private func waitingCount(cached: (count: Int, dataVersion: Int64)?, dataVersion: Int64) throws(SQLiteError)
        -> Int
    {
        if let cached, cached.dataVersion == dataVersion { return cached.count }
        let rows = try database.rows("SELECT count(*) AS waiting FROM outbox WHERE state IN ('pending', 'in_flight')")
        return Int(try rows.first?.integer("waiting") ?? 0)
    }

    /// One request of a group, inside its savepoint.
    private func insert(_ request: BackendRequest, at time: Double, waiting: inout Int) throws(SQLiteError)
        -> Result<EnqueueResult, OutboxError>
    {
        var evicted: String?
        if waiting >= options.capacity {
            let exists = try database.query(
                "SELECT 1 FROM outbox WHERE idempotency_key = ?", [.text(request.idempotencyKey)])
            if !exists.isEmpty { return .success(.duplicate) }
            guard options.whenFull == .deadLetterOldest else { return .failure(.full(capacity: options.capacity)) }
            let oldest = try database.rows(
                "SELECT id, idempotency_key FROM outbox WHERE state = 'pending' ORDER BY id LIMIT 1")
            if let row = oldest.first {
                try database.query(
                    """
                    UPDATE outbox SET state = 'dead', last_error = 'evicted: the outbox was full', last_cause = 'evicted'
                    WHERE id = ?
                    """,
                    [.integer(try row.integer("id"))])
                evicted = try row.text("idempotency_key")
                waiting -= 1
            }
        }
        let body = request.body.map { SQLiteValue.blob(JSONWriter.compact($0)) } ?? .null
        try database.query(
            """
            INSERT INTO outbox (idempotency_key, url, method, body, state, created_at, next_attempt_at, expires_at,
                                notification_id, action_id)
            VALUES (?, ?, ?, ?, 'pending', ?, ?, ?, ?, ?) ON CONFLICT (idempotency_key) DO NOTHING
            """,
            [
                .text(request.idempotencyKey), .text(request.url), .text(request.method), body, .real(time),
                .real(time), .real(time + options.timeToLive.seconds), .text(request.notificationIdentifier),
                .text(request.actionIdentifier),
            ])
        if database.changes == 0 { return .success(.duplicate) }
        waiting += 1
        let id = database.lastInsertRowID
        return .success(evicted.map { .addedEvicting(id, evictedKey: $0) } ?? .added(id))
    }
}
