import Foundation

extension SQLGatewayStore {
    /// From this many recipients on, PostgreSQL takes them with COPY: its three round trips (the ids, the
    /// copy's start, its data) cost more than one multi-row INSERT for a handful.
    static let rowsToCopy = 64

    /// Recipients per COPY: few round trips per page, and a buffer of about half a MiB (a page of 10,000 in
    /// one grew the server's peak memory by ~15 MiB with four pages arriving at once).
    static let rowsPerCopy = 2_000

    /// Inserts recipients with `COPY … FROM STDIN (FORMAT binary)` (and their own payloads with a second one),
    /// their ids taken from the table's sequence first (added to `newIDs`), in the caller's transaction;
    /// returns the smallest id. All of them or none commit with the transaction, as a multi-row INSERT's would.
    func copy(
        _ deliveries: ArraySlice<NewDelivery>, of spec: NotificationSpec, shared: SharedPayloads, keyed: Bool,
        now: Date, tallies: inout CampaignTallies, newIDs: inout [Int64]?, into connection: PostgresConnection
    ) throws(StoreError) -> Int64? {
        guard !deliveries.isEmpty else { return nil }
        let ids = try Self.newIDs(deliveries.count, connection)
        newIDs? += ids
        // Recipients naming an experiment's variant or a language (`keyed`) have them in two more columns.
        var rows = PostgresCopyRows(fields: keyed ? 11 : 9, reservingRows: deliveries.count, bytesPerRow: 192)
        var payloads = PostgresCopyRows(fields: 2)
        let time = now.timeIntervalSince1970
        let due = (spec.sendAt ?? now).timeIntervalSince1970
        var skipped = 0
        for (delivery, id) in zip(deliveries, ids) {
            rows.startRow()
            rows.bigint(id)
            rows.text(spec.id)
            rows.text(spec.app)
            rows.text(delivery.token)
            rows.text(delivery.apnsID)
            if let reason = delivery.skippedBecause {
                skipped += 1
                rows.text(DeliveryState.skipped.rawValue)
                rows.double(time)
                rows.text(reason)
                rows.double(time)
            } else {
                rows.text(DeliveryState.queued.rawValue)
                rows.double(delivery.dueAt?.timeIntervalSince1970 ?? due)
                if let held = delivery.heldBecause { rows.text(held) } else { rows.null() }
                rows.null()
            }
            if keyed {
                if let variant = delivery.variant { rows.text(variant) } else { rows.null() }
                if let language = delivery.language { rows.text(language) } else { rows.null() }
            }
            if shared.isOwn(delivery) {
                payloads.startRow()
                payloads.bigint(id)
                payloads.bytea(delivery.payload)
            }
        }
        if spec.kind == .campaign {
            tallies.add(spec.id, .queued, deliveries.count - skipped)
            tallies.add(spec.id, .skipped, skipped)
        }
        let copied = try connection.copy(
            """
            COPY deliveries (id, notification_id, app, token, apns_id, state, due_at, reason, finished_at\(
                keyed ? ", variant, language" : ""))
            FROM STDIN (FORMAT binary)
            """, &rows)
        guard copied == deliveries.count else {
            throw StoreError("\(copied) of \(deliveries.count) recipients were copied", context: "COPY deliveries")
        }
        if payloads.count > 0 {
            try connection.copy("COPY payloads (delivery_id, payload) FROM STDIN (FORMAT binary)", &payloads)
        }
        return ids.first
    }

    /// `count` new recipient ids from the table's sequence, ascending. They are consecutive unless another
    /// transaction took ids at the same moment: the statement answers them as runs of consecutive ids.
    private static func newIDs(_ count: Int, _ connection: PostgresConnection) throws(StoreError) -> [Int64] {
        let runs = try connection.query(
            """
            SELECT MIN(id), MAX(id) FROM (
                SELECT id, id - ROW_NUMBER() OVER (ORDER BY id) AS run
                FROM (SELECT nextval('deliveries_id_seq') AS id FROM generate_series(1, ?)) AS taken) AS numbered
            GROUP BY run ORDER BY 1
            """, [.integer(Int64(count))])
        var ids: [Int64] = []
        ids.reserveCapacity(count)
        for run in runs {
            guard let low = run[0].integer, let high = run[1].integer, low <= high else { continue }
            ids += low...high
        }
        guard ids.count == count else {
            throw StoreError("the sequence gave \(ids.count) ids for \(count) recipients", context: "deliveries_id_seq")
        }
        return ids
    }
}
