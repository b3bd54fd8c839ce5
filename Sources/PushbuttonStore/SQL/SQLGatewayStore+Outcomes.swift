import Foundation

/// Outcomes: what APNs answered, recorded for leased recipients, and what follows from it.
extension SQLGatewayStore {
    /// Records outcomes with one UPDATE per chunk, then the 410s' deactivations and the webhook events, in one
    /// transaction.
    public func record(_ results: [CompletedDelivery], webhookEvents: Bool, now: Date) throws(StoreError)
        -> RecordedOutcomes
    {
        guard !results.isEmpty else { return RecordedOutcomes(recorded: []) }
        return try with { connection throws(StoreError) in
            try connection.transaction { () throws(StoreError) -> RecordedOutcomes in
                // The leases' batches first: an outcome counts only while its lease still holds them. A lease's
                // rows come together and share one token string: hashed once per run, not once per row.
                var tokens = Set<String>()
                var lastToken: String?
                // (By index, here and below: a `for result in results` copies each outcome, retaining its strings.)
                for index in results.indices where results[index].delivery.leaseToken != lastToken {
                    lastToken = results[index].delivery.leaseToken
                    tokens.insert(results[index].delivery.leaseToken)
                }
                let batches = try QueueBatches.lock(held: tokens, dialect: dialect, connection)
                var recorded = Set<Int64>()
                recorded.reserveCapacity(results.count)
                // Delivered, the usual outcome, needs only its row id: one `UPDATE … WHERE id IN (…)` per
                // lease and attempt count. The others carry a status and reason each.
                // (A handful of groups, nearly always one: searched from the last, not hashed per row.)
                var delivered: [(group: DeliveredGroup, ids: [Int64])] = []
                var others: [CompletedDelivery] = []
                var held = HeldBatches(batches)
                for index in results.indices {
                    let id = results[index].delivery.id
                    // A recipient whose batch its lease no longer holds is another lease's now: refused.
                    guard
                        held.holds(
                            token: results[index].delivery.leaseToken,
                            notification: results[index].delivery.notificationID, id: id)
                    else { continue }
                    if case .delivered = results[index].outcome {
                        let group = DeliveredGroup(
                            leases: results[index].delivery.leases, attempts: results[index].attempts)
                        if let at = delivered.lastIndex(where: { $0.group == group }) {
                            delivered[at].ids.append(id)
                        } else {
                            delivered.append((group, [id]))
                        }
                    } else {
                        others.append(results[index])
                    }
                }
                for (group, ids) in delivered {
                    try Self.recordDelivered(ids, group, now: now, into: &recorded, connection)
                }
                var start = 0
                while start < others.count {
                    let end = min(start + Self.rowsPerStatement, others.count)
                    var values: [SQLValue] = [Self.time(now)]
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
                            unregistered = at.map(Self.time) ?? .null
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
                // The campaigns' tallies: which notifications are campaigns is known from the lease (the
                // headers kept), else read; a move per run of one campaign's rows in one state.
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
                // Whether each was recorded, looked up once (three loops ask).
                let wasRecorded = results.indices.map { recorded.contains(results[$0].delivery.id) }
                var tallies = CampaignTallies()
                var run: (notification: String, state: DeliveryState, count: Int)?
                // The last notification's kind at hand: a string hash per notification, not per row.
                var lastKind: (notification: String, isCampaign: Bool)?
                for index in results.indices where wasRecorded[index] {
                    let notification = results[index].delivery.notificationID
                    let state = results[index].outcome.state
                    let isCampaign: Bool
                    if let lastKind, lastKind.notification == notification {
                        isCampaign = lastKind.isCampaign
                    } else {
                        isCampaign = kinds[notification] == true
                        lastKind = (notification, isCampaign)
                    }
                    guard isCampaign else { continue }
                    if let current = run, current.notification == notification, current.state == state {
                        run?.count += 1
                    } else {
                        if let run { tallies.move(run.notification, from: .leased, to: run.state, run.count) }
                        run = (notification, state, 1)
                    }
                }
                if let run { tallies.move(run.notification, from: .leased, to: run.state, run.count) }
                try tallies.write(into: connection)
                try QueueBatches.removeFinished(batches, connection)
                // What follows from the recorded outcomes commits with them: a crash cannot keep the one and
                // lose the other.
                var deactivated: [String: Int] = [:]
                var events: [SQLValue] = []
                for index in results.indices where wasRecorded[index] {
                    if case .delivered = results[index].outcome { continue }
                    let result = results[index]
                    let delivery = result.delivery
                    switch result.outcome {
                    case .delivered: continue
                    case .rejected(let status, _, let at):
                        if status == 410,
                            try Self.markInactive(
                                app: delivery.app, token: delivery.token, since: at ?? now, now: now, connection)
                        {
                            deactivated[delivery.app, default: 0] += 1
                        }
                        let kind: WebhookEvent.Kind = status == 410 ? .deviceUnregistered : .notificationFailed
                        if webhookEvents { events += [.integer(delivery.id), .text(kind.rawValue), Self.time(now)] }
                    case .failed:
                        if webhookEvents {
                            events += [
                                .integer(delivery.id), .text(WebhookEvent.Kind.notificationFailed.rawValue),
                                Self.time(now),
                            ]
                        }
                    }
                }
                for rows in StatementShapes.chunks(events.count / 3) {
                    try connection.query(
                        "INSERT INTO webhook_events (delivery_id, type, created_at) VALUES "
                            + Array(repeating: "(?, ?, ?)", count: rows.count).joined(separator: ", ")
                            + " ON CONFLICT (delivery_id) DO NOTHING",
                        Array(events[3 * rows.lowerBound..<3 * rows.upperBound]))
                }
                return RecordedOutcomes(
                    recorded: wasRecorded, deactivated: deactivated,
                    webhookEvents: events.count / 3)
            }
        }
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
