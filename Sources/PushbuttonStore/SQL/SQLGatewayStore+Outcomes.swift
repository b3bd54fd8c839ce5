import Foundation

/// Outcomes: what APNs answered, recorded for leased recipients, and what follows from it.
extension SQLGatewayStore {
    /// Records outcomes with one UPDATE per chunk, then the 410s' deactivations and the webhook events, in one
    /// transaction.
    public func record(_ results: [CompletedDelivery], webhookEvents: Bool, now: Date) throws(StoreError)
        -> RecordedOutcomes
    {
        guard !results.isEmpty else { return RecordedOutcomes(recorded: []) }
        let recorded = try with { connection throws(StoreError) in
            try connection.transaction { () throws(StoreError) -> RecordedOutcomes in
                // The leases' batches first: an outcome counts only while its lease still holds them.
                let batches = try QueueBatches.lock(held: Self.leaseTokens(of: results), dialect: dialect, connection)
                let (delivered, others) = Self.sortByOutcome(results, held: HeldBatches(batches))
                var recorded = Set<Int64>()
                recorded.reserveCapacity(results.count)
                for (group, ids) in delivered {
                    try Self.recordDelivered(ids, group, now: now, into: &recorded, connection)
                }
                try Self.recordOthers(others, now: now, into: &recorded, connection)
                // Whether each was recorded, looked up once (three loops ask).
                let wasRecorded = results.indices.map { recorded.contains(results[$0].delivery.id) }
                var tallies = CampaignTallies()
                tallies.finish(results, recorded: wasRecorded, campaigns: try campaignKinds(of: results, connection))
                try tallies.write(into: connection)
                try QueueBatches.removeFinished(batches, finished: recorded, connection)
                // What follows from the recorded outcomes commits with them: a crash cannot keep the one and
                // lose the other.
                var events = WebhookEventRows(enabled: webhookEvents, now: now)
                let deactivated = try Self.followOutcomes(
                    results, recorded: wasRecorded, now: now, events: &events, connection)
                try events.write(into: connection)
                try raiseOutcomeEvents(results, recorded: wasRecorded, now: now, connection)
                return RecordedOutcomes(recorded: wasRecorded, deactivated: deactivated, webhookEvents: events.count)
            }
        }
        notifyRecordedOutcomes(results, recorded: recorded.recorded)
        return recorded
    }

    /// The lease tokens of `results`. A lease's rows come together and share one token string: hashed once per
    /// run, not once per row.
    private static func leaseTokens(of results: [CompletedDelivery]) -> Set<String> {
        var tokens = Set<String>()
        var lastToken: String?
        // (By index, here and below: a `for result in results` copies each outcome, retaining its strings.)
        for index in results.indices where results[index].delivery.leaseToken != lastToken {
            lastToken = results[index].delivery.leaseToken
            tokens.insert(results[index].delivery.leaseToken)
        }
        return tokens
    }

    /// The results whose batch their lease still `held`, sorted for recording: delivered, the usual outcome,
    /// needs only its row id (one `UPDATE … WHERE id IN (…)` per lease and attempt count); the others carry a
    /// status and reason each. A recipient whose batch its lease no longer holds is another lease's now:
    /// left out (refused).
    private static func sortByOutcome(_ results: [CompletedDelivery], held: HeldBatches)
        -> (delivered: [(group: DeliveredGroup, ids: [Int64])], others: [CompletedDelivery])
    {
        var held = held
        // (A handful of groups, nearly always one: searched from the last, not hashed per row.)
        var delivered: [(group: DeliveredGroup, ids: [Int64])] = []
        var others: [CompletedDelivery] = []
        for index in results.indices {
            let id = results[index].delivery.id
            guard
                held.holds(
                    token: results[index].delivery.leaseToken,
                    notification: results[index].delivery.notificationID, id: id)
            else { continue }
            if case .delivered = results[index].outcome {
                let group = DeliveredGroup(leases: results[index].delivery.leases, attempts: results[index].attempts)
                if let at = delivered.lastIndex(where: { $0.group == group }) {
                    delivered[at].ids.append(id)
                } else {
                    delivered.append((group, [id]))
                }
            } else {
                others.append(results[index])
            }
        }
        return (delivered, others)
    }

    /// Records rejected and failed recipients (a status and reason each), a chunk per statement; adds the ids
    /// it changed to `recorded`.
    private static func recordOthers(
        _ others: [CompletedDelivery], now: Date, into recorded: inout Set<Int64>, _ connection: any SQLConnection
    ) throws(StoreError) {
        var start = 0
        while start < others.count {
            let end = min(start + rowsPerStatement, others.count)
            var values: [SQLValue] = [time(now)]
            values.reserveCapacity(1 + StatementShapes.padded(end - start) * 7)
            for result in others[start..<end] {
                var status: SQLValue = .integer(200)
                var reason: SQLValue = .null
                var unregistered: SQLValue = .null
                switch result.outcome {
                case .delivered: break
                case .rejected(let code, let text, let at):
                    status = .integer(Int64(code))
                    reason = .text(text)
                    unregistered = at.map(time) ?? .null
                case .failed(_, let cause):
                    status = .null
                    reason = .text(cause)
                }
                values += [
                    .integer(result.delivery.id), .text(result.outcome.state.rawValue), status, reason,
                    .integer(Int64(result.attempts)), unregistered, .integer(Int64(result.delivery.leases)),
                ]
            }
            // Padded with rows whose id (-1) no recipient has: a few statement shapes, not one per count.
            let count = StatementShapes.padded(end - start)
            for _ in (end - start)..<count {
                values += [.integer(-1), .text("failed"), .null, .null, .integer(0), .null, .integer(0)]
            }
            let rows = try connection.query(OutcomeStatements.each(count: count), values)
            for row in rows { if let id = row[0].integer { recorded.insert(id) } }
            start = end
        }
    }

    /// Which of the results' notifications are campaigns: known from the lease (the headers kept), else read.
    private func campaignKinds(of results: [CompletedDelivery], _ connection: any SQLConnection)
        throws(StoreError) -> [String: Bool]
    {
        var kinds: [String: Bool] = [:]
        var unknown = Set<String>()
        var last: String?
        for index in results.indices where results[index].delivery.notificationID != last {
            let notification = results[index].delivery.notificationID
            last = notification
            guard kinds[notification] == nil, !unknown.contains(notification) else { continue }
            if let kept = headers.isCampaign(notification) {
                kinds[notification] = kept
            } else {
                unknown.insert(notification)
            }
        }
        if !unknown.isEmpty {
            let campaigns = try CampaignTallies.campaigns(among: unknown, connection)
            for notification in unknown { kinds[notification] = campaigns.contains(notification) }
        }
        return kinds
    }

    /// What follows from the recorded rejections and failures, in their transaction: a 410 applies the
    /// ``applyUnregisteredTokenRule(to:unregisteredAt:now:events:_:)``; any other rejection and a failure raise
    /// a `notification.failed` event. Returns the devices deactivated, per app.
    private static func followOutcomes(
        _ results: [CompletedDelivery], recorded wasRecorded: [Bool], now: Date, events: inout WebhookEventRows,
        _ connection: any SQLConnection
    ) throws(StoreError) -> [String: Int] {
        var deactivated: [String: Int] = [:]
        for index in results.indices where wasRecorded[index] {
            if case .delivered = results[index].outcome { continue }
            let result = results[index]
            let delivery = result.delivery
            switch result.outcome {
            case .delivered: continue
            case .rejected(let status, _, let at) where status == unregisteredStatus:
                if try applyUnregisteredTokenRule(
                    to: delivery, unregisteredAt: at, now: now, events: &events, connection)
                {
                    deactivated[delivery.app, default: 0] += 1
                }
            case .rejected, .failed:
                events.raise(.notificationFailed, delivery: delivery.id)
            }
        }
        return deactivated
    }

    /// APNs's status for a device token that is no longer valid for the topic ("Unregistered").
    static let unregisteredStatus = 410

    /// **The unregistered-token rule.** APNs answered 410 Unregistered for the recipient's token: its device is
    /// deactivated as of the token's unregistered timestamp (APNs's, else `now`) unless it registered again
    /// after that timestamp (``markInactive(app:token:since:now:_:)``: a newer registration stays active), and
    /// a `device.unregistered` webhook event is raised for the recipient either way. Runs in the transaction
    /// that records the outcome. Returns whether the device was deactivated.
    static func applyUnregisteredTokenRule(
        to delivery: LeasedDelivery, unregisteredAt: Date?, now: Date, events: inout WebhookEventRows,
        _ connection: any SQLConnection
    ) throws(StoreError) -> Bool {
        let deactivated = try markInactive(
            app: delivery.app, token: delivery.token, since: unregisteredAt ?? now, now: now, connection)
        events.raise(.deviceUnregistered, delivery: delivery.id)
        return deactivated
    }

    /// Delivered recipients with one lease count and one attempt count (one statement sets both).
    struct DeliveredGroup: Hashable {
        var leases: Int
        var attempts: Int
    }

    /// Records delivered recipients by id, a chunk per statement; when a chunk changes fewer rows than it
    /// has (a lease lost to another worker: rare), reads back which it did.
    private static func recordDelivered(
        _ ids: [Int64], _ group: DeliveredGroup, now: Date, into recorded: inout Set<Int64>,
        _ connection: any SQLConnection
    ) throws(StoreError) {
        var start = 0
        while start < ids.count {
            let end = min(start + rowsPerStatement, ids.count)
            let count = StatementShapes.padded(end - start)
            var idValues: [SQLValue] = []
            idValues.reserveCapacity(count)
            for id in ids[start..<end] { idValues.append(.integer(id)) }
            // Padded with an id no recipient has: a few statement shapes, not one per count.
            while idValues.count < count { idValues.append(.integer(-1)) }
            let (attempts, leases) = (SQLValue.integer(Int64(group.attempts)), SQLValue.integer(Int64(group.leases)))
            let changed = try connection.run(
                OutcomeStatements.delivered(count: count), [attempts, time(now), leases] + idValues
            ).changes
            if changed == end - start {
                recorded.formUnion(ids[start..<end])
            } else if changed > 0 {
                for row in try connection.query(
                    OutcomeStatements.recordedDelivered(count: count), idValues + [time(now), attempts, leases])
                {
                    if let id = row[0].integer { recorded.insert(id) }
                }
            }
            start = end
        }
    }
}
