import Foundation
import Pushbutton
import PushbuttonSupport

/// The event stream (issue 35): rows raised in the transactions that change what they report, claimed in
/// batches by the gateway's relay. Per-recipient events keep only (type, recipient row): their fields are the
/// recipient's row, read when claimed.
extension SQLGatewayStore: EventStreamStore {
    /// Sets the types this process raises.
    public func streamEvents(_ kinds: Set<StreamEvent.Kind>) {
        streamKinds.withLock { $0 = kinds }
    }

    /// The types this process raises.
    public var streamedEvents: Set<StreamEvent.Kind> { streamKinds.withLock { $0 } }

    /// Raises the stream events of recorded outcomes, in their transaction (after the tallies are written):
    /// `notification.sent`, `.rejected`, `.failed`, `device.unregistered` per recipient, and
    /// `campaign.finished` for a campaign whose queue these outcomes emptied. Nothing when the stream is off.
    func raiseOutcomeEvents(
        _ results: [CompletedDelivery], recorded: [Bool], now: Date, _ connection: any SQLConnection
    ) throws(StoreError) {
        let kinds = streamedEvents
        guard !kinds.isEmpty else { return }
        var rows = StreamEventRows(kinds: kinds, now: now)
        var notifications: [String] = []
        for index in results.indices where recorded[index] {
            let delivery = results[index].delivery
            if notifications.last != delivery.notificationID, !notifications.contains(delivery.notificationID) {
                notifications.append(delivery.notificationID)
            }
            switch results[index].outcome {
            case .delivered: rows.raise(.sent, delivery: delivery.id)
            case .rejected(let status, _, _):
                rows.raise(.rejected, delivery: delivery.id)
                if status == Self.unregisteredStatus { rows.raise(.deviceUnregistered, delivery: delivery.id) }
            case .failed: rows.raise(.failed, delivery: delivery.id)
            }
        }
        try rows.write(into: connection)
        guard kinds.contains(.campaignFinished) else { return }
        for id in notifications { try raiseCampaignFinished(id, now: now, connection) }
    }

    /// Raises `campaign.finished` for those of `ids` whose queue is empty (their last recipients skipped at a
    /// lease, over a frequency cap). Nothing when the stream does not stream it.
    func raiseCampaignsFinished(_ ids: Set<String>, now: Date, _ connection: any SQLConnection) throws(StoreError) {
        guard streamedEvents.contains(.campaignFinished) else { return }
        for id in ids.sorted() { try raiseCampaignFinished(id, now: now, connection) }
    }

    /// **A campaign is finished** when none of its recipients is queued or leased (by its tallies): the
    /// first time that happens, one `campaign.finished` event with its counts (a page added later does not
    /// raise another: the event's key is the campaign's).
    private func raiseCampaignFinished(_ id: String, now: Date, _ connection: any SQLConnection) throws(StoreError) {
        // Queued and leased recipients are in queue batches (removed as their outcomes are recorded): while
        // one is left, the campaign runs. One probe of an index per outcome transaction, not a sum of tallies.
        guard
            try connection.query(
                "SELECT 1 FROM queue_batches WHERE notification_id = ? LIMIT 1", [.text(id)]
            ).isEmpty,
            let notification = try connection.query(
                "SELECT app, kind FROM notifications WHERE id = ?", [.text(id)]
            ).first, notification[1].text == NotificationSpec.Kind.campaign.rawValue,
            let app = notification[0].text
        else { return }
        let states = DeliveryState.allCases
        guard
            let row = try connection.query(
                "SELECT " + states.map { "SUM(\($0.rawValue))" }.joined(separator: ", ")
                    + " FROM campaign_tallies WHERE campaign_id = ?", [.text(id)]
            ).first
        else { return }
        var counts: [String: JSONValue] = [:]
        for (index, state) in states.enumerated() { counts[state.rawValue] = .integer(row[index].integer ?? 0) }
        guard counts[DeliveryState.queued.rawValue] == .integer(0), counts[DeliveryState.leased.rawValue] == .integer(0)
        else { return }
        let detail: JSONValue = .object(["app": .string(app), "campaign_id": .string(id), "counts": .object(counts)])
        try connection.query(
            """
            INSERT INTO stream_events (type, event_key, detail, created_at) VALUES (?, ?, ?, ?)
            ON CONFLICT (event_key) DO NOTHING
            """,
            [
                .text(StreamEvent.Kind.campaignFinished.rawValue), .text("campaign.finished:" + id),
                .text(String(decoding: JSONWriter.compact(detail), as: UTF8.self)), Self.time(now),
            ])
    }

    /// Raises a `tap` event per tap, keyed by app and device event id (a retried batch raises none twice).
    public func raiseTapEvents(_ taps: [TapRecord], now: Date) throws(StoreError) {
        guard streamedEvents.contains(.tap), !taps.isEmpty else { return }
        try with { connection throws(StoreError) in
            try connection.transaction { () throws(StoreError) in
                for tap in taps {
                    var detail: [String: JSONValue] = [
                        "app": .string(tap.app), "token": .string(tap.token),
                        "notification_id": .string(tap.notificationID), "category": .string(tap.category),
                        "response": .string(tap.response.rawValue), "foreground": .bool(tap.foreground),
                        "responded_at": .integer(Int64((tap.respondedAt.timeIntervalSince1970 * 1000).rounded())),
                    ]
                    if let campaign = tap.campaignID { detail["campaign_id"] = .string(campaign) }
                    if let button = tap.button { detail["button"] = .string(button) }
                    if let latency = tap.latencyMilliseconds { detail["latency_ms"] = .integer(latency) }
                    // The device's event id is the tap's: a retried batch raises nothing twice.
                    try connection.query(
                        """
                        INSERT INTO stream_events (type, event_key, detail, created_at) VALUES (?, ?, ?, ?)
                        ON CONFLICT (event_key) DO NOTHING
                        """,
                        [
                            .text(StreamEvent.Kind.tap.rawValue), .text("tap:\(tap.app):\(tap.eventID)"),
                            .text(String(decoding: JSONWriter.compact(.object(detail)), as: UTF8.self)),
                            Self.time(now),
                        ])
                }
            }
        }
    }

    /// Claims a batch, oldest first, with the fields of the recipients it names.
    public func claimStreamEvents(limit: Int, duration: TimeInterval, now: Date) throws(StoreError) -> [StreamEvent] {
        try leaseStreamEvents(limit: limit, duration: duration, now: now).events
    }

    /// Leases a batch under a new token, oldest first, with the fields of the recipients it names.
    public func leaseStreamEvents(limit: Int, duration: TimeInterval, now: Date) throws(StoreError)
        -> LeasedEvents<StreamEvent>
    {
        let lease = EventLease(queue: .stream, token: UUID().uuidString.lowercased())
        return try with { connection throws(StoreError) in
            try connection.transaction { () throws(StoreError) -> LeasedEvents<StreamEvent> in
                let claimed = try claimEvents(
                    lease, returning: "id, type, delivery_id, event_key, detail, created_at, attempts", limit: limit,
                    duration: duration, now: now, connection)
                let recipients = try Self.recipientRows(claimed.compactMap { $0[2].integer }, connection)
                let events = claimed.compactMap { row in Self.streamEvent(row, recipients: recipients, now: now) }
                    .sorted { $0.rowID < $1.rowID }
                return LeasedEvents(lease: lease, events: events, failures: Self.failures(claimed, column: 6))
            }
        }
    }

    /// The recipients' rows the claimed events name, by id, with their notification's kind.
    private static func recipientRows(_ ids: [Int64], _ connection: any SQLConnection) throws(StoreError)
        -> [Int64: [SQLValue]]
    {
        var rows: [Int64: [SQLValue]] = [:]
        let unique = Array(Set(ids))
        for start in stride(from: 0, to: unique.count, by: rowsPerStatement) {
            let chunk = unique[start..<min(start + rowsPerStatement, unique.count)]
            for row in try connection.query(
                """
                SELECT d.id, d.app, d.token, d.notification_id, d.apns_id, d.status, d.reason, d.attempts,
                    d.unregistered_at, n.kind
                FROM deliveries d JOIN notifications n ON n.id = d.notification_id
                WHERE d.id IN (\(Array(repeating: "?", count: chunk.count).joined(separator: ", ")))
                """, chunk.map { .integer($0) })
            {
                if let id = row[0].integer { rows[id] = row }
            }
        }
        return rows
    }

    private static func streamEvent(_ row: [SQLValue], recipients: [Int64: [SQLValue]], now: Date) -> StreamEvent? {
        guard let rowID = row[0].integer, let kind = StreamEvent.Kind(rawValue: row[1].text ?? "") else { return nil }
        let at = date(row[5]) ?? now
        if let key = row[3].text, let text = row[4].text,
            var fields = (try? JSONParser.parse(text))?.objectValue
        {
            let app = fields.removeValue(forKey: "app")?.stringValue ?? ""
            // A tap's id is the device's event id; a campaign's end, the campaign's.
            let id =
                kind == .tap ? "tap:" + (key.split(separator: ":", maxSplits: 2).last.map(String.init) ?? key) : key
            return StreamEvent(rowID: rowID, id: id, kind: kind, app: app, at: at, fields: fields)
        }
        guard let delivery = row[2].integer, let recipient = recipients[delivery] else { return nil }
        let apnsID = recipient[4].text ?? ""
        var fields: [String: JSONValue] = [
            "token": .string(recipient[2].text ?? ""), "notification_id": .string(recipient[3].text ?? ""),
            "apns_id": .string(apnsID),
        ]
        if recipient[9].text == NotificationSpec.Kind.campaign.rawValue {
            fields["campaign_id"] = .string(recipient[3].text ?? "")
        }
        if kind != .sent {
            if let status = recipient[5].integer { fields["status"] = .integer(status) }
            if let reason = recipient[6].text { fields["reason"] = .string(reason) }
            if kind == .failed { fields["attempts"] = .integer(recipient[7].integer ?? 0) }
        }
        if kind == .deviceUnregistered {
            fields["unregistered_at"] = .integer(
                Int64(((date(recipient[8]) ?? at).timeIntervalSince1970 * 1000).rounded()))
        }
        return StreamEvent(
            rowID: rowID, id: "\(kind.rawValue):\(apnsID)", kind: kind, app: recipient[1].text ?? "", at: at,
            fields: fields)
    }

    /// Removes events handed on, a statement per 500.
    public func finishStreamEvents(_ rowIDs: [Int64]) throws(StoreError) {
        guard !rowIDs.isEmpty else { return }
        try with { connection throws(StoreError) in
            for start in stride(from: 0, to: rowIDs.count, by: Self.rowsPerStatement) {
                let chunk = rowIDs[start..<min(start + Self.rowsPerStatement, rowIDs.count)]
                try connection.query(
                    "DELETE FROM stream_events WHERE id IN ("
                        + Array(repeating: "?", count: chunk.count).joined(separator: ", ") + ")",
                    chunk.map { .integer($0) })
            }
        }
    }
}
