import Foundation

extension SQLGatewayStore: ExperimentStore {
    private static let experimentColumns =
        "campaign_id, app, variants, control, default_variant, metric, state, decide_after, planned_trials, "
        + "decided_at, rolled_out, verdict"

    private static func experiment(_ row: [SQLValue]) -> ExperimentRecord {
        ExperimentRecord(
            campaignID: row[0].text ?? "", app: row[1].text ?? "",
            variants: (row[2].text ?? "").split(separator: "\n").map(String.init), control: row[3].text ?? "",
            defaultVariant: row[4].text ?? "", metric: row[5].text,
            state: ExperimentState(rawValue: row[6].text ?? "") ?? .running, decideAfter: date(row[7]),
            plannedTrials: row[8].integer.map(Int.init), decidedAt: date(row[9]), rolledOut: row[10].text,
            verdict: row[11].isNull ? nil : row[11].blob)
    }

    /// Inserts the recipients' places; a token listed twice keeps its first place.
    private static func insert(
        _ recipients: [ExperimentRecipient], campaign id: String, _ connection: any SQLConnection
    ) throws(StoreError) {
        for chunk in stride(from: 0, to: recipients.count, by: rowsPerStatement) {
            let rows = recipients[chunk..<min(chunk + rowsPerStatement, recipients.count)]
            var values: [SQLValue] = []
            values.reserveCapacity(rows.count * 5)
            for recipient in rows {
                values += [
                    .text(id), .text(recipient.token), recipient.variant.sql, .text(recipient.phase.rawValue),
                    recipient.data.map { .blob($0) } ?? .null,
                ]
            }
            try connection.query(
                "INSERT INTO experiment_recipients (campaign_id, token, variant, phase, data) VALUES "
                    + Array(repeating: "(?, ?, ?, ?, ?)", count: rows.count).joined(separator: ", ")
                    + " ON CONFLICT (campaign_id, token) DO NOTHING", values)
        }
    }

    /// The campaign, its experiment, deliveries and recipients' places in one transaction (not SQLite's group commit).
    public func enqueue(
        _ spec: NotificationSpec, experiment: ExperimentRecord, deliveries: [NewDelivery],
        recipients: [ExperimentRecipient], idempotency: IdempotencyKey?, now: Date
    ) throws(StoreError) -> EnqueueResult {
        committedWork.intakeBegan()
        defer { committedWork.intakeEnded() }
        let request = EnqueuedNotification(spec: spec, deliveries: deliveries, idempotency: idempotency, now: now)
        let result = try with { connection throws(StoreError) in
            try connection.transaction { () throws(StoreError) -> EnqueueResult in
                let result = try enqueue(request, connection)
                guard case .created = result else { return result }
                try connection.query(
                    "INSERT INTO experiments (\(Self.experimentColumns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    [
                        .text(spec.id), .text(spec.app), .text(experiment.variants.joined(separator: "\n")),
                        .text(experiment.control), .text(experiment.defaultVariant), experiment.metric.sql,
                        .text(experiment.state.rawValue), experiment.decideAfter.map(Self.time) ?? .null,
                        experiment.plannedTrials.sql, .null, .null, .null,
                    ])
                try Self.insert(recipients, campaign: spec.id, connection)
                return result
            }
        }
        if case .created = result, !deliveries.isEmpty { committedWorkHere() }
        return result
    }

    /// One page and its recipients' places in one transaction.
    public func append(
        campaign id: String, deliveries: [NewDelivery], recipients: [ExperimentRecipient],
        idempotency: IdempotencyKey?, now: Date
    ) throws(StoreError) -> PageAppendResult? {
        committedWork.intakeBegan()
        defer { committedWork.intakeEnded() }
        let added = try with { connection throws(StoreError) in
            try connection.transaction { () throws(StoreError) -> PageAppendResult? in
                let added = try append(campaign: id, idempotency: idempotency, now: now, connection) {
                    flush throws(StoreError) in
                    for start in stride(from: 0, to: deliveries.count, by: Self.rowsPerStatement) {
                        try flush(deliveries[start..<min(start + Self.rowsPerStatement, deliveries.count)])
                    }
                }
                guard case .added = added else { return added }
                try Self.insert(recipients, campaign: id, connection)
                return added
            }
        }
        if case .added(let count) = added, count > 0 { committedWorkHere() }
        return added
    }

    /// The experiment's row, from a reader connection.
    public func experiment(campaign id: String) throws(StoreError) -> ExperimentRecord? {
        try read { connection throws(StoreError) in
            try connection.query(
                "SELECT \(Self.experimentColumns) FROM experiments WHERE campaign_id = ?", [.text(id)]
            ).first.map(Self.experiment)
        }
    }

    /// One query, its parts joined by UNION ALL: recipients per place, delivered and displayed devices, and
    /// devices per response and per button — each a COUNT(DISTINCT token) grouped by variant and phase. The
    /// deliveries, receipts and taps are read by their notification's index and joined to the recipients'
    /// places by primary key. A test's recipient whose delivery names its variant (intake from migration
    /// `61-` on) has no place row: its parts count the campaign's deliveries by that column, and its receipts
    /// and taps joined to those deliveries.
    public func experimentTallies(campaign id: String, app: String) throws(StoreError) -> [ExperimentTally] {
        let rows = try read { connection throws(StoreError) in
            try connection.query(
                """
                SELECT variant, phase, 'recipients', CAST(NULL AS TEXT), COUNT(*) FROM experiment_recipients
                WHERE campaign_id = ? GROUP BY variant, phase
                UNION ALL
                SELECT r.variant, r.phase, 'delivered', CAST(NULL AS TEXT), COUNT(DISTINCT d.token) FROM deliveries d
                JOIN experiment_recipients r ON r.campaign_id = d.notification_id AND r.token = d.token
                WHERE d.notification_id = ? AND d.state = 'delivered' GROUP BY r.variant, r.phase
                UNION ALL
                SELECT r.variant, r.phase, 'displayed', CAST(NULL AS TEXT), COUNT(DISTINCT e.token)
                FROM display_receipts e
                JOIN experiment_recipients r ON r.campaign_id = e.notification_id AND r.token = e.token
                WHERE e.app = ? AND e.notification_id = ? GROUP BY r.variant, r.phase
                UNION ALL
                SELECT r.variant, r.phase, t.response, CAST(NULL AS TEXT), COUNT(DISTINCT t.token) FROM tap_events t
                JOIN experiment_recipients r ON r.campaign_id = t.notification_id AND r.token = t.token
                WHERE t.app = ? AND t.notification_id = ? GROUP BY r.variant, r.phase, t.response
                UNION ALL
                SELECT r.variant, r.phase, 'button:', t.button, COUNT(DISTINCT t.token) FROM tap_events t
                JOIN experiment_recipients r ON r.campaign_id = t.notification_id AND r.token = t.token
                WHERE t.app = ? AND t.notification_id = ? AND t.response = 'button'
                GROUP BY r.variant, r.phase, t.button
                UNION ALL
                SELECT variant, 'test', 'recipients', CAST(NULL AS TEXT), COUNT(DISTINCT token) FROM deliveries
                WHERE notification_id = ? AND variant IS NOT NULL GROUP BY variant
                UNION ALL
                SELECT variant, 'test', 'delivered', CAST(NULL AS TEXT), COUNT(DISTINCT token) FROM deliveries
                WHERE notification_id = ? AND state = 'delivered' AND variant IS NOT NULL GROUP BY variant
                UNION ALL
                SELECT d.variant, 'test', 'displayed', CAST(NULL AS TEXT), COUNT(DISTINCT e.token)
                FROM display_receipts e
                JOIN (SELECT DISTINCT token, variant FROM deliveries WHERE notification_id = ? AND variant IS NOT NULL) d
                    ON d.token = e.token
                WHERE e.app = ? AND e.notification_id = ? GROUP BY d.variant
                UNION ALL
                SELECT d.variant, 'test', t.response, CAST(NULL AS TEXT), COUNT(DISTINCT t.token) FROM tap_events t
                JOIN (SELECT DISTINCT token, variant FROM deliveries WHERE notification_id = ? AND variant IS NOT NULL) d
                    ON d.token = t.token
                WHERE t.app = ? AND t.notification_id = ? GROUP BY d.variant, t.response
                UNION ALL
                SELECT d.variant, 'test', 'button:', t.button, COUNT(DISTINCT t.token) FROM tap_events t
                JOIN (SELECT DISTINCT token, variant FROM deliveries WHERE notification_id = ? AND variant IS NOT NULL) d
                    ON d.token = t.token
                WHERE t.app = ? AND t.notification_id = ? AND t.response = 'button' GROUP BY d.variant, t.button
                """,
                [
                    .text(id), .text(id), .text(app), .text(id), .text(app), .text(id), .text(app), .text(id),
                    .text(id), .text(id), .text(id), .text(app), .text(id), .text(id), .text(app), .text(id),
                    .text(id), .text(app), .text(id),
                ])
        }
        struct Key: Hashable {
            var variant: String?
            var phase: ExperimentPhase
        }
        var tallies: [Key: ExperimentTally] = [:]
        for row in rows {
            guard let phase = ExperimentPhase(rawValue: row[1].text ?? "") else { continue }
            let key = Key(variant: row[0].text, phase: phase)
            var tally = tallies[key] ?? ExperimentTally(variant: key.variant, phase: phase)
            // Added: a test's counts may come from both kinds of rows (places, and deliveries naming their variant).
            let count = Int(row[4].integer ?? 0)
            switch row[2].text ?? "" {
            case "recipients": tally.recipients += count
            case "delivered": tally.delivered += count
            case "displayed": tally.displayed += count
            case "button": tally.anyButton += count
            case "body": tally.bodyTaps += count
            case "dismiss": tally.dismisses += count
            case "button:": if let button = row[3].text { tally.buttonTaps[button, default: 0] += count }
            default: break
            }
            tallies[key] = tally
        }
        return tallies.values.sorted {
            ($0.variant ?? "\u{10FFFF}", $0.phase.rawValue) < ($1.variant ?? "\u{10FFFF}", $1.phase.rawValue)
        }
    }

    /// The earliest due decision or stale claim (a read: no write lock when nothing is due).
    public func nextExperimentDecision(reclaimAfter: TimeInterval) throws(StoreError) -> Date? {
        try read { connection throws(StoreError) in
            try connection.query(
                """
                SELECT MIN(CASE WHEN state = 'testing' THEN decide_after ELSE claimed_at + ? END) FROM experiments
                WHERE state IN ('testing', 'deciding', 'rolling_out')
                """, [.real(reclaimAfter)]
            ).first.flatMap { Self.date($0[0]) }
        }
    }

    /// Due decisions and stale claims, each claimed by a conditional UPDATE (PostgreSQL skips rows another claim locks).
    public func claimExperimentDecisions(now: Date, reclaimAfter: TimeInterval, limit: Int) throws(StoreError)
        -> [ExperimentRecord]
    {
        try with { connection throws(StoreError) in
            try connection.transaction { () throws(StoreError) -> [ExperimentRecord] in
                // PostgreSQL: the candidates are locked (others skip them); each is claimed by a conditional
                // UPDATE, so a row another process claimed meanwhile is not claimed again.
                let candidates = try connection.query(
                    """
                    SELECT campaign_id, state FROM experiments
                    WHERE (state = 'testing' AND decide_after <= ?)
                       OR (state IN ('deciding', 'rolling_out') AND claimed_at <= ?)
                    ORDER BY decide_after LIMIT ?
                    """ + dialect.skipLocked,
                    [Self.time(now), Self.time(now - reclaimAfter), .integer(Int64(max(0, limit)))])
                var claimed: [ExperimentRecord] = []
                for row in candidates {
                    guard let id = row[0].text, let state = row[1].text else { continue }
                    let next = state == "testing" ? "deciding" : state
                    let changed = try connection.run(
                        "UPDATE experiments SET state = ?, claimed_at = ? WHERE campaign_id = ? AND state = ?",
                        [.text(next), Self.time(now), .text(id), .text(state)])
                    guard changed.changes == 1,
                        let record = try connection.query(
                            "SELECT \(Self.experimentColumns) FROM experiments WHERE campaign_id = ?", [.text(id)]
                        ).first
                    else { continue }
                    claimed.append(Self.experiment(record))
                }
                return claimed
            }
        }
    }

    /// One testing experiment claimed early, by a conditional UPDATE.
    public func claimExperimentDecision(campaign id: String, now: Date) throws(StoreError) -> ExperimentRecord? {
        try with { connection throws(StoreError) in
            try connection.transaction { () throws(StoreError) -> ExperimentRecord? in
                let changed = try connection.run(
                    "UPDATE experiments SET state = 'deciding', claimed_at = ? WHERE campaign_id = ? AND state = 'testing'",
                    [Self.time(now), .text(id)])
                guard changed.changes == 1 else { return nil }
                return try connection.query(
                    "SELECT \(Self.experimentColumns) FROM experiments WHERE campaign_id = ?", [.text(id)]
                ).first.map(Self.experiment)
            }
        }
    }

    /// Testing experiments with a planned sample size.
    public func experimentsWithPlannedSample() throws(StoreError) -> [ExperimentRecord] {
        try read { connection throws(StoreError) in
            try connection.query(
                "SELECT \(Self.experimentColumns) FROM experiments WHERE state = 'testing' AND planned_trials IS NOT NULL"
            ).map(Self.experiment)
        }
    }

    /// The verdict stored, only on a claimed (deciding) experiment.
    public func recordDecision(campaign id: String, rolledOut: String, verdict: [UInt8], now: Date)
        throws(StoreError)
    {
        _ = try with { connection throws(StoreError) in
            try connection.query(
                """
                UPDATE experiments SET state = 'rolling_out', decided_at = ?, rolled_out = ?, verdict = ?, claimed_at = ?
                WHERE campaign_id = ? AND state = 'deciding'
                """,
                [
                    Self.time(now), .text(rolledOut), .text(String(decoding: verdict, as: UTF8.self)), Self.time(now),
                    .text(id),
                ])
        }
    }

    /// A page of waiting recipients in token order.
    public func waitingRecipients(campaign id: String, after token: String?, limit: Int) throws(StoreError)
        -> [ExperimentRecipient]
    {
        try read { connection throws(StoreError) in
            try connection.query(
                """
                SELECT token, data FROM experiment_recipients
                WHERE campaign_id = ? AND phase = 'waiting' AND token > ? ORDER BY token LIMIT ?
                """, [.text(id), .text(token ?? ""), .integer(Int64(max(0, limit)))]
            ).map { row in
                ExperimentRecipient(
                    token: row[0].text ?? "", variant: nil, phase: .waiting, data: row[1].isNull ? nil : row[1].blob)
            }
        }
    }

    /// Marks the page's waiting recipients rolled out and queues only those, in one transaction.
    public func rollOut(campaign id: String, variant: String, deliveries: [NewDelivery], now: Date)
        throws(StoreError) -> Int?
    {
        guard !deliveries.isEmpty else { return 0 }
        let added = try with { connection throws(StoreError) in
            try connection.transaction { () throws(StoreError) -> Int? in
                // Only the recipients still waiting are queued, and marked rolled out in this transaction.
                var waiting = Set<String>()
                for start in stride(from: 0, to: deliveries.count, by: Self.rowsPerStatement) {
                    let tokens = deliveries[start..<min(start + Self.rowsPerStatement, deliveries.count)].map {
                        SQLValue.text($0.token)
                    }
                    let rows = try connection.query(
                        """
                        UPDATE experiment_recipients SET phase = 'rolled_out', variant = ?
                        WHERE campaign_id = ? AND phase = 'waiting' AND token IN (\(Array(repeating: "?", count: tokens.count).joined(separator: ", ")))
                        RETURNING token
                        """, [.text(variant), .text(id)] + tokens)
                    for row in rows { if let token = row[0].text { waiting.insert(token) } }
                }
                let page = deliveries.filter { waiting.contains($0.token) }
                let added = try append(campaign: id, idempotency: nil, now: now, connection) {
                    flush throws(StoreError) in
                    for start in stride(from: 0, to: page.count, by: Self.rowsPerStatement) {
                        try flush(page[start..<min(start + Self.rowsPerStatement, page.count)])
                    }
                }
                guard case .added(let count) = added else { return nil }
                try connection.query(
                    "UPDATE experiments SET claimed_at = ? WHERE campaign_id = ?", [Self.time(now), .text(id)])
                return count
            }
        }
        if let added, added > 0 { committedWorkHere() }
        return added
    }

    /// The experiment rolled out.
    public func finishRollOut(campaign id: String, now: Date) throws(StoreError) {
        _ = try with { connection throws(StoreError) in
            try connection.query(
                "UPDATE experiments SET state = 'rolled_out', claimed_at = ? WHERE campaign_id = ?",
                [Self.time(now), .text(id)])
        }
    }
}
