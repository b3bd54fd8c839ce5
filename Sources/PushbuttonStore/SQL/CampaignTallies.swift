/// The changes one transaction makes to its campaigns' counts by state, written in that transaction as one
/// row per campaign of `campaign_tallies` (migration `7-campaign-tallies`). A campaign's progress is the sum of
/// its rows, a few per thousand recipients, instead of a count over every recipient on every poll. Rows are
/// only ever inserted: concurrent workers (other processes' too, on PostgreSQL) never wait on one counter row.
///
/// Plain notifications (at most a page of recipients) are still counted from their recipients.
struct CampaignTallies {
    private var changes: [String: [DeliveryState: Int]] = [:]
    /// Recipients skipped over a frequency cap, by campaign (also counted in their `skipped` change).
    private var capped: [String: Int] = [:]

    /// The columns, in `DeliveryState.allCases` order.
    static let columns = DeliveryState.allCases.map(\.rawValue).joined(separator: ", ")

    mutating func add(_ campaign: String, _ state: DeliveryState, _ count: Int = 1) {
        guard count != 0 else { return }
        changes[campaign, default: [:]][state, default: 0] += count
    }

    mutating func move(_ campaign: String, from old: DeliveryState, to new: DeliveryState, _ count: Int = 1) {
        guard old != new else { return }
        add(campaign, old, -count)
        add(campaign, new, count)
    }

    /// Moves the leased rows of campaigns from queued to leased (only those counted queued: an expired lease's
    /// rows were counted leased already), a move per run of one campaign's rows. `specs` are the rows'
    /// notifications' header columns as a lease reads them (the seventh is the kind).
    mutating func lease(_ rows: [LeasedRow], specs: [String: [SQLValue]]) {
        var run: (notification: String, count: Int)?
        for row in rows {
            let notification = row.notification
            guard row.wasQueued, let spec = specs[notification], spec.count > 6,
                spec[6].text == NotificationSpec.Kind.campaign.rawValue
            else { continue }
            if run?.notification == notification {
                run?.count += 1
            } else {
                if let run { move(run.notification, from: .queued, to: .leased, run.count) }
                run = (notification, 1)
            }
        }
        if let run { move(run.notification, from: .queued, to: .leased, run.count) }
    }

    /// Moves the campaigns' `rows` a lease skipped (over a frequency cap, `reason`) from queued to skipped.
    mutating func skip(_ rows: [LeasedRow], specs: [String: [SQLValue]], reason: String) {
        for row in rows {
            guard row.wasQueued, let spec = specs[row.notification], spec.count > 6,
                spec[6].text == NotificationSpec.Kind.campaign.rawValue
            else { continue }
            move(row.notification, from: .queued, to: .skipped)
            if reason == FrequencyCap.skippedReason { capped[row.notification, default: 0] += 1 }
        }
    }

    /// Moves the recipients a release freed (`freed`: counts per notification) from leased back to queued, for
    /// those notifications that are `campaigns`.
    mutating func release(_ freed: [String: Int], campaigns: Set<String>) {
        for (notification, count) in freed where campaigns.contains(notification) {
            move(notification, from: .leased, to: .queued, count)
        }
    }

    /// Moves the recorded results of campaigns (`campaigns[notification] == true`) from leased to their final
    /// state, a move per run of one campaign's rows in one state. `recorded` says, per result, whether it was.
    mutating func finish(_ results: [CompletedDelivery], recorded: [Bool], campaigns: [String: Bool]) {
        var run: (notification: String, state: DeliveryState, count: Int)?
        // The last notification's kind at hand: a string hash per notification, not per row.
        var lastKind: (notification: String, isCampaign: Bool)?
        // (By index: a `for result in results` copies each outcome, retaining its strings.)
        for index in results.indices where recorded[index] {
            let notification = results[index].delivery.notificationID
            let state = results[index].outcome.state
            let isCampaign: Bool
            if let lastKind, lastKind.notification == notification {
                isCampaign = lastKind.isCampaign
            } else {
                isCampaign = campaigns[notification] == true
                lastKind = (notification, isCampaign)
            }
            guard isCampaign else { continue }
            if let current = run, current.notification == notification, current.state == state {
                run?.count += 1
            } else {
                if let run { move(run.notification, from: .leased, to: run.state, run.count) }
                run = (notification, state, 1)
            }
        }
        if let run { move(run.notification, from: .leased, to: run.state, run.count) }
    }

    /// Inserts a row per campaign whose counts changed.
    func write(into connection: any SQLConnection) throws(StoreError) {
        let rows = changes.filter { $0.value.values.contains { $0 != 0 } }.sorted { $0.key < $1.key }
        guard !rows.isEmpty else { return }
        let width = DeliveryState.allCases.count + 2
        let row = "(" + Array(repeating: "?", count: width).joined(separator: ", ") + ")"
        var values: [SQLValue] = []
        values.reserveCapacity(rows.count * width)
        for (campaign, counts) in rows {
            values.append(.text(campaign))
            for state in DeliveryState.allCases { values.append(.integer(Int64(counts[state] ?? 0))) }
            values.append(.integer(Int64(capped[campaign] ?? 0)))
        }
        for chunk in StatementShapes.chunks(rows.count) {
            try connection.query(
                "INSERT INTO campaign_tallies (campaign_id, \(Self.columns), frequency_capped) VALUES "
                    + Array(repeating: row, count: chunk.count).joined(separator: ", "),
                Array(values[width * chunk.lowerBound..<width * chunk.upperBound]))
        }
    }

    /// A campaign's counts by state (the states it has none in left out).
    static func counts(of campaign: String, _ connection: any SQLConnection) throws(StoreError)
        -> [DeliveryState: Int]
    {
        let sums = DeliveryState.allCases.map { "SUM(\($0.rawValue))" }.joined(separator: ", ")
        guard
            let row = try connection.query(
                "SELECT \(sums) FROM campaign_tallies WHERE campaign_id = ?", [.text(campaign)]
            ).first
        else { return [:] }
        var counts: [DeliveryState: Int] = [:]
        for (index, state) in DeliveryState.allCases.enumerated() {
            if let count = row[index].integer, count != 0 { counts[state] = Int(count) }
        }
        return counts
    }

    /// How many of a campaign's recipients were skipped over a frequency cap.
    static func frequencyCapped(of campaign: String, _ connection: any SQLConnection) throws(StoreError) -> Int {
        Int(
            try connection.query(
                "SELECT SUM(frequency_capped) FROM campaign_tallies WHERE campaign_id = ?", [.text(campaign)]
            ).first?[0].integer ?? 0)
    }

    /// Which of `ids` are campaigns (the rest are notifications, which have no tallies).
    static func campaigns(among ids: Set<String>, _ connection: any SQLConnection) throws(StoreError)
        -> Set<String>
    {
        var campaigns = Set<String>()
        let all = ids.sorted()
        for start in stride(from: 0, to: all.count, by: SQLGatewayStore.rowsPerStatement) {
            var chunk = all[start..<min(start + SQLGatewayStore.rowsPerStatement, all.count)].map { SQLValue.text($0) }
            // Padded with the last id repeated: a few statement shapes, not one per count.
            chunk += Array(repeating: chunk[chunk.count - 1], count: StatementShapes.padded(chunk.count) - chunk.count)
            for row in try connection.query(
                "SELECT id FROM notifications WHERE kind = 'campaign' AND id IN ("
                    + Array(repeating: "?", count: chunk.count).joined(separator: ", ") + ")", chunk)
            {
                if let id = row[0].text { campaigns.insert(id) }
            }
        }
        return campaigns
    }
}
