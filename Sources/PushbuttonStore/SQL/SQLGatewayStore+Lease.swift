import Foundation

/// Leases: due recipients taken by a worker for a while, and given back.
extension SQLGatewayStore {
    /// Leases up to `limit` due recipients of every app for `duration`.
    public func lease(limit: Int, duration: TimeInterval, now: Date) throws(StoreError) -> [LeasedDelivery] {
        try lease(limit: limit, duration: duration, now: now, excludingApps: [])
    }

    /// Leases up to `limit` due recipients for `duration`, none of the apps `excludingApps`.
    public func lease(limit: Int, duration: TimeInterval, now: Date, excludingApps: Set<String>) throws(StoreError)
        -> [LeasedDelivery]
    {
        // A lease whose recipients were all skipped over their frequency cap or held by quiet hours took
        // nothing to send while more may be due: taken again at once (a few times), not left to the workers'
        // idle wait.
        for _ in 0..<7 {
            let (leased, skipped) = try leaseOnce(
                limit: limit, duration: duration, now: now, excludingApps: excludingApps)
            if !leased.isEmpty || skipped == 0 { return leased }
        }
        return try leaseOnce(limit: limit, duration: duration, now: now, excludingApps: excludingApps).leased
    }

    /// One lease in one transaction: the recipients to send, and how many it skipped over their cap or held
    /// by quiet hours.
    private func leaseOnce(limit: Int, duration: TimeInterval, now: Date, excludingApps: Set<String>)
        throws(StoreError) -> (leased: [LeasedDelivery], skipped: Int)
    {
        let token = UUID().uuidString.lowercased()
        let (rows, payloads, specs, sharedBy, byKey, skipped) = try with { connection throws(StoreError) in
            // A lease is committed without waiting for the disk: a killed process loses nothing the kernel has,
            // and a lease lost with the machine's power is an expired lease (its rows due again, same
            // apns-ids). Outcomes, intake and everything else stay durable.
            try dialect.transactionWithoutWaitingForDisk(connection) {
                () throws(StoreError) -> (
                    [LeasedRow], [Int64: [UInt8]], [String: [SQLValue]], [String: [UInt8]], [KeyedPayload], Int
                ) in
                let taken = try QueueBatches.lease(
                    limit: limit, token: token, until: now + duration, now: now, dialect: dialect,
                    excludingApps: excludingApps,
                    rate: { (notification: String) throws(StoreError) in try rate(of: notification, connection) },
                    connection)
                let specs = try headerColumns(of: taken, connection)
                // Held ones first: a recipient put back is neither a send toward the cap nor skipped by it.
                let (free, held) = try QuietHoursAtLease.apply(taken, specs: specs, now: now, connection)
                let (rows, skipped) = try FrequencyCaps.apply(
                    free, specs: specs, now: now, dialect: dialect, connection)
                let payloads = try Self.ownPayloads(of: rows, connection)
                let sharedBy = try sharedPayloads(of: rows, without: payloads, connection)
                let byKey = try keyedPayloads(of: rows, without: payloads, connection)
                var tallies = CampaignTallies()
                tallies.lease(rows, specs: specs)
                tallies.skip(skipped, specs: specs, reason: FrequencyCap.skippedReason)
                try tallies.write(into: connection)
                if !skipped.isEmpty { try finishSkipped(skipped, token: token, now: now, connection) }
                return (rows, payloads, specs, sharedBy, byKey, skipped.count + held)
            }
        }
        return (
            Self.leased(
                rows, token: token, payloads: payloads, specs: specs, sharedBy: sharedBy, byKey: byKey),
            skipped
        )
    }

    /// The recipients' own payloads (a campaign's per-recipient data), by row id; the rest share their
    /// notification's, looked up once per notification (``sharedPayloads(of:without:_:)``) rather than kept
    /// per row.
    private static func ownPayloads(of rows: [LeasedRow], _ connection: any SQLConnection) throws(StoreError)
        -> [Int64: [UInt8]]
    {
        var payloads: [Int64: [UInt8]] = [:]
        var start = 0
        if let low = rows.lazy.map(\.id).min(), let high = rows.lazy.map(\.id).max(),
            high - low < Int64(4 * rows.count + rowsPerStatement)
        {
            // Leases take due rows mostly in id order: one range read instead of a statement per chunk
            // (an id in the range not leased here is another lease's: skipped below, by lookup).
            for row in try connection.query(
                "SELECT delivery_id, payload FROM payloads WHERE delivery_id BETWEEN ? AND ?",
                [.integer(low), .integer(high)])
            {
                if let id = row[0].integer { payloads[id] = row[1].blob ?? [] }
            }
            if !payloads.isEmpty {
                let leasedIDs = Set(rows.map(\.id))
                payloads = payloads.filter { leasedIDs.contains($0.key) }
            }
            start = rows.count
        }
        while start < rows.count {
            let end = min(start + rowsPerStatement, rows.count)
            var ids = rows[start..<end].map { SQLValue.integer($0.id) }
            // Padded with the last id repeated: a few statement shapes, not one per count.
            ids += Array(repeating: ids[ids.count - 1], count: StatementShapes.padded(ids.count) - ids.count)
            for row in try connection.query(
                "SELECT delivery_id, payload FROM payloads WHERE delivery_id IN ("
                    + Array(repeating: "?", count: ids.count).joined(separator: ", ") + ")", ids)
            {
                if let id = row[0].integer { payloads[id] = row[1].blob ?? [] }
            }
            start = end
        }
        return payloads
    }

    /// The header columns of the rows' notifications (app, topic, push type, priority, expiration, collapse id,
    /// kind, then the frequency cap's and quiet hours' columns). The headers are the notification's (each row has
    /// copies): read once per notification, not turned into strings again for each recipient, and kept for the
    /// next leases. Rows come mostly grouped by notification: the last one's are at hand without a lookup.
    private func headerColumns(of rows: [LeasedRow], _ connection: any SQLConnection) throws(StoreError)
        -> [String: [SQLValue]]
    {
        var specs: [String: [SQLValue]] = [:]
        var last: String?
        for row in rows {
            let notification = row.notification
            guard notification != last else { continue }
            last = notification
            guard specs[notification] == nil else { continue }
            if let kept = headers.spec(notification) {
                specs[notification] = kept
                continue
            }
            let spec =
                try connection.query(
                    "SELECT app, topic, push_type, priority, expiration, collapse_id, kind, wake_on_outcome, "
                        + "\(FrequencyCaps.columns), \(QuietHoursAtLease.columns) FROM notifications WHERE id = ?",
                    [.text(notification)]
                ).first ?? []
            specs[notification] = spec
            if !spec.isEmpty { headers.keep(spec: spec, for: notification) }
        }
        return specs
    }

    /// The shared payloads of the notifications with a row without its own (not in `payloads`) sent the
    /// default text outside an experiment's test (the others' are keyed: ``keyedPayloads(of:without:_:)``).
    private func sharedPayloads(
        of rows: [LeasedRow], without payloads: [Int64: [UInt8]], _ connection: any SQLConnection
    ) throws(StoreError) -> [String: [UInt8]] {
        var sharedBy: [String: [UInt8]] = [:]
        var last: String?
        for row in rows where row.variant == nil && row.language == nil && (payloads.isEmpty || payloads[row.id] == nil)
        {
            let notification = row.notification
            guard notification != last else { continue }
            last = notification
            guard sharedBy[notification] == nil else { continue }
            if let kept = headers.shared(notification) {
                sharedBy[notification] = kept
            } else {
                let shared =
                    try connection.query(
                        "SELECT payload FROM shared_payloads WHERE notification_id = ?", [.text(notification)]
                    ).first?[0].blob
                sharedBy[notification] = shared ?? []
                if let shared { headers.keep(shared: shared, for: notification) }
            }
        }
        return sharedBy
    }

    /// The shared payloads of the experiment variants and languages the rows without their own were sent: each
    /// read once per process (kept in ``headers``) or, past what it keeps, once per lease.
    private func keyedPayloads(
        of rows: [LeasedRow], without payloads: [Int64: [UInt8]], _ connection: any SQLConnection
    ) throws(StoreError) -> [KeyedPayload] {
        var found: [KeyedPayload] = []
        for row in rows
        where (row.variant != nil || row.language != nil) && (payloads.isEmpty || payloads[row.id] == nil) {
            guard KeyedPayload.find(for: row, in: found) == nil else { continue }
            var keyed = KeyedPayload(
                notification: row.notification, variant: row.variant, language: row.language, payload: [])
            if let kept = headers.keyed(for: row) {
                keyed.payload = kept
            } else if let stored = try connection.query(
                "SELECT payload FROM \(keyed.stored.table) WHERE \(keyed.stored.columns)", keyed.stored.values
            ).first?[0].blob {
                keyed.payload = stored
                headers.keep(keyed: keyed)
            }
            found.append(keyed)
        }
        return found
    }

    /// The leased recipients, made from their rows outside the transaction. One set of shared fields (and
    /// shared payload) per notification, referenced by its rows: made once, the last notification's at hand
    /// without a lookup.
    private static func leased(
        _ rows: [LeasedRow], token: String, payloads: [Int64: [UInt8]], specs: [String: [SQLValue]],
        sharedBy: [String: [UInt8]], byKey: [KeyedPayload]
    ) -> [LeasedDelivery] {
        var made: [String: (headers: LeaseHeaders, payload: [UInt8])] = [:]
        var last: (headers: LeaseHeaders, payload: [UInt8])?
        var leased: [LeasedDelivery] = []
        leased.reserveCapacity(rows.count)
        for row in rows {
            let notification = row.notification
            let shared: (headers: LeaseHeaders, payload: [UInt8])
            if let last, last.headers.fields.notificationID == notification {
                shared = last
            } else if let kept = made[notification] {
                shared = kept
            } else {
                let spec = specs[notification] ?? []
                func column(_ index: Int) -> SQLValue { index < spec.count ? spec[index] : .null }
                shared = (
                    LeaseHeaders(
                        notificationID: notification, app: column(0).text ?? "", topic: column(1).text ?? "",
                        pushType: column(2).text ?? "alert", priority: column(3).integer.map(Int.init),
                        expiration: column(4).integer, collapseID: column(5).text, leaseToken: token),
                    sharedBy[notification] ?? []
                )
                made[notification] = shared
            }
            last = shared
            var payload = payloads.isEmpty ? shared.payload : payloads[row.id] ?? shared.payload
            if row.variant != nil || row.language != nil, payloads.isEmpty || payloads[row.id] == nil {
                payload = KeyedPayload.find(for: row, in: byKey) ?? payload
            }
            leased.append(
                LeasedDelivery(
                    id: row.id, token: row.token, apnsID: row.apnsID, payload: payload, leases: row.leases,
                    shared: shared.headers))
        }
        return leased
    }

    /// After recipients of this lease were skipped over their cap: its batches with nothing left to send are
    /// removed (not held until the lease runs out), and a campaign that leaves nothing queued is finished.
    private func finishSkipped(_ skipped: [LeasedRow], token: String, now: Date, _ connection: any SQLConnection)
        throws(StoreError)
    {
        try QueueBatches.removeFinished(QueueBatches.lock(held: [token], dialect: dialect, connection), connection)
        try raiseCampaignsFinished(Set(skipped.map(\.notification)), now: now, connection)
    }

    /// Moves the end of the batches still held under `tokens` to `until`, in one transaction.
    public func renewLeases(_ tokens: Set<String>, until: Date) throws(StoreError) -> Int {
        guard !tokens.isEmpty else { return 0 }
        return try with { connection throws(StoreError) in
            try dialect.transactionWithoutWaitingForDisk(connection) { () throws(StoreError) -> Int in
                var held = 0
                // Only the batches still carrying the token: one whose lease ran out and was leased again has
                // another token (its new holder's), and keeps it.
                for token in tokens {
                    held += try connection.run(
                        "UPDATE queue_batches SET lease_until = ? WHERE lease_token = ?",
                        [Self.time(until), .text(token)]
                    ).changes
                }
                return held
            }
        }
    }

    public func release(_ deliveries: [LeasedDelivery]) throws(StoreError) {
        guard !deliveries.isEmpty else { return }
        let freed = try with { connection throws(StoreError) in
            try connection.transaction { () throws(StoreError) -> Bool in
                let batches = try QueueBatches.lock(
                    held: Set(deliveries.map(\.leaseToken)), dialect: dialect, connection)
                let freed = try QueueBatches.free(batches, releasing: deliveries, connection)
                var tallies = CampaignTallies()
                tallies.release(freed, campaigns: try CampaignTallies.campaigns(among: Set(freed.keys), connection))
                try tallies.write(into: connection)
                return !freed.isEmpty
            }
        }
        // Due again now: an idle worker of another process takes them at once (a drain's point).
        if freed { notifyOtherProcesses() }
    }
}
