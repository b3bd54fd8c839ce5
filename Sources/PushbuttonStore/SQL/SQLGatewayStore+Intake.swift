import Foundation
import PushbuttonSupport

/// Intake: notifications and campaigns into the queue (with their recipients, skipped when their device is
/// inactive), a campaign's pages appended, and a campaign cancelled.
extension SQLGatewayStore {
    /// 1 when the inserted row's device is registered and inactive, else 0: a single notification's INSERT
    /// returns it, so the skip's UPDATE runs only when there is one to skip.
    static let inactiveDevice =
        "CASE WHEN EXISTS (SELECT 1 FROM devices d WHERE d.app = deliveries.app AND d.token = deliveries.token "
        + "AND d.active = 0) THEN 1 ELSE 0 END"

    /// Recipients just inserted whose device is registered and inactive are not sent: skipped, in the same
    /// transaction, so no worker ever sees them queued.
    /// With `returningIDs`, the skipped rows' ids too (a lease at intake leaves them out).
    private func skipInactive(
        notification id: String, from first: Int64, now: Date, returningIDs: Bool = false,
        _ connection: any SQLConnection
    ) throws(StoreError) -> (count: Int, ids: Set<Int64>) {
        let update = """
            UPDATE deliveries SET state = 'skipped', reason = 'DeviceInactive', finished_at = ?
            WHERE notification_id = ? AND id >= ? AND state = 'queued' AND EXISTS (
                SELECT 1 FROM devices d WHERE d.app = deliveries.app AND d.token = deliveries.token AND d.active = 0)
            """
        let values: [SQLValue] = [Self.time(now), .text(id), .integer(first)]
        guard returningIDs else { return (try connection.run(update, values).changes, []) }
        let ids = Set(try connection.query(update + " RETURNING id", values).compactMap { $0[0].integer })
        return (ids.count, ids)
    }

    /// The payload the recipients under `key` (a row of `table`: the notification, and its variant and
    /// language) share: the stored one, or else `candidate`, stored as it. Concurrent appends to one campaign
    /// agree on one (PostgreSQL's second INSERT waits for the first, then reads it).
    private func storedOnce(
        _ candidate: [UInt8], in table: String, key: KeyValuePairs<String, String>, _ connection: any SQLConnection
    ) throws(StoreError) -> [UInt8] {
        let columns = key.map(\.key).joined(separator: ", ")
        let values = key.map { SQLValue.text($0.value) }
        // The first to store it (a single notification always) has it back from its INSERT: no second read.
        if let inserted = try connection.query(
            "INSERT INTO \(table) (\(columns), payload) VALUES (\(String(repeating: "?, ", count: key.count))?) "
                + "ON CONFLICT (\(columns)) DO NOTHING RETURNING payload", values + [.blob(candidate)]
        ).first?[0].blob {
            return inserted
        }
        guard
            let stored = try connection.query(
                "SELECT payload FROM \(table) WHERE " + key.map { "\($0.key) = ?" }.joined(separator: " AND "), values
            ).first?[0].blob
        else { throw StoreError(.inconsistent, "the shared payload vanished", context: "INSERT INTO \(table)") }
        return stored
    }

    /// Sets `shared`'s payloads for the keys (variant, language) of `deliveries` it lacks: the stored ones, or
    /// else each key's first recipient's without data of its own, stored. Answers whether any recipient names a
    /// variant or a language (then its rows are inserted with those columns).
    private func share(
        _ deliveries: ArraySlice<NewDelivery>, of id: String, into shared: inout SharedPayloads,
        _ connection: any SQLConnection
    ) throws(StoreError) -> Bool {
        var keyed = false
        for delivery in deliveries {
            guard delivery.variant != nil || delivery.language != nil else {
                if shared.notification == nil, !delivery.personalized {
                    shared.notification = try storedOnce(
                        delivery.payload, in: "shared_payloads", key: ["notification_id": id], connection)
                }
                continue
            }
            keyed = true
            guard !delivery.personalized, shared.payload(for: delivery) == nil else { continue }
            if let language = delivery.language {
                let variant = delivery.variant ?? ""
                shared.languages[variant, default: [:]][language] = try storedOnce(
                    delivery.payload, in: "language_payloads",
                    key: ["notification_id": id, "variant": variant, "language": language], connection)
            } else if let variant = delivery.variant {
                shared.variants[variant] = try storedOnce(
                    delivery.payload, in: "variant_payloads", key: ["notification_id": id, "variant": variant],
                    connection)
            }
        }
        return keyed
    }

    /// Inserts recipients with multi-row INSERTs (PostgreSQL: COPY, from ``rowsToCopy`` on); returns the
    /// smallest new row id, or for an SQLite page a bound at or below it (all new rows are at or above it, no
    /// other row of the notification is). A recipient whose payload is its `shared` one (the notification's, its
    /// variant's or its language's, each set from its first recipient without data of its own: ``share``) gets no
    /// row in `payloads`. The new rows' ids are added to `newIDs` where they are known (PostgreSQL and a few rows;
    /// an SQLite page sets it to nil).
    /// `byApnsID`, when given, gets each new row's id by its apns-id (rows to lease at intake), and
    /// `inactiveSeen` whether any of those rows' devices is registered inactive (else nothing is to skip).
    @discardableResult
    private func insert(
        _ deliveries: ArraySlice<NewDelivery>, of spec: NotificationSpec, shared: inout SharedPayloads, now: Date,
        tallies: inout CampaignTallies, newIDs: inout [Int64]?, byApnsID: inout [String: Int64]?,
        inactiveSeen: inout Bool, into connection: any SQLConnection
    ) throws(StoreError) -> Int64? {
        guard !deliveries.isEmpty else { return nil }
        let keyed = try share(deliveries, of: spec.id, into: &shared, connection)
        if deliveries.count >= Self.rowsToCopy, let postgres = connection as? PostgresConnection {
            return try copy(
                deliveries, of: spec, shared: shared, keyed: keyed, now: now, tallies: &tallies,
                newIDs: &newIDs, into: postgres)
        }
        // SQLite (one writer, in this transaction) numbers new rows above the largest id: for a page, that
        // bound is the smallest id the skip of inactive devices needs, without a row returned per recipient
        // (a few recipients, a single notification's, come back by RETURNING: one statement fewer).
        var first: Int64?
        let bounded = dialect.hasOneWriter && deliveries.count >= Self.rowsToCopy
        if bounded {
            first = (try connection.query("SELECT MAX(id) FROM deliveries").first?[0].integer ?? 0) + 1
            newIDs = nil
        }
        let notification = SQLValue.text(spec.id)
        let app = SQLValue.text(spec.app)
        let time = Self.time(now)
        let due = Self.time(spec.sendAt ?? now)
        var skipped = 0
        for chunk in StatementShapes.chunks(deliveries.count) {
            let (start, end) = (deliveries.startIndex + chunk.lowerBound, deliveries.startIndex + chunk.upperBound)
            let values = Self.rowValues(
                deliveries[start..<end], notification: notification, app: app, time: time, due: due,
                keyed: keyed, skipped: &skipped)
            // Only recipients with a payload of their own need their row id matched (RETURNING's order is not
            // promised, so by apns-id); the rest only tell the smallest id (unless the bound above is known).
            let ownPayloads = deliveries[start..<end].contains { shared.isOwn($0) }
            let returning =
                byApnsID != nil
                ? " RETURNING id, apns_id, " + Self.inactiveDevice
                : ownPayloads ? " RETURNING id, apns_id" : bounded ? "" : " RETURNING id"
            let rows = try connection.query(
                Self.insertDeliveries(end - start, keyed: keyed) + returning, values)
            if !bounded, let lowest = rows.compactMap({ $0[0].integer }).min() {
                first = min(first ?? lowest, lowest)
                newIDs? += rows.compactMap { $0[0].integer }
            }
            if byApnsID != nil {
                for row in rows {
                    if let id = row[0].integer, let apnsID = row[1].text { byApnsID?[apnsID] = id }
                    if row.count > 2, row[2].integer == 1 { inactiveSeen = true }
                }
            }
            guard ownPayloads else { continue }
            try Self.insertOwnPayloads(of: deliveries[start..<end], shared: shared, inserted: rows, connection)
        }
        if spec.kind == .campaign {
            tallies.add(spec.id, .queued, deliveries.count - skipped)
            tallies.add(spec.id, .skipped, skipped)
        }
        return first
    }

    /// The values of an `INSERT INTO deliveries` of `deliveries` (``insertText(_:keyed:)``'s columns), queued
    /// or skipped (counted in `skipped`) as each says; with `keyed`, each row's experiment variant and language
    /// last.
    private static func rowValues(
        _ deliveries: ArraySlice<NewDelivery>, notification: SQLValue, app: SQLValue, time: SQLValue, due: SQLValue,
        keyed: Bool, skipped: inout Int
    ) -> [SQLValue] {
        var values: [SQLValue] = []
        values.reserveCapacity(deliveries.count * (keyed ? 10 : 8))
        for delivery in deliveries {
            values.append(notification)
            values.append(app)
            values.append(.text(delivery.token))
            values.append(.text(delivery.apnsID))
            if let reason = delivery.skippedBecause {
                skipped += 1
                values.append(Self.skippedState)
                values.append(time)
                values.append(.text(reason))
                values.append(time)
            } else {
                // Due at the notification's time unless the recipient has its own (local time, quiet hours);
                // a held one's reason stays in its row until its outcome replaces it.
                values.append(Self.queuedState)
                values.append(delivery.dueAt.map(Self.time) ?? due)
                values.append(delivery.heldBecause.sql)
                values.append(.null)
            }
            if keyed {
                values.append(delivery.variant.sql)
                values.append(delivery.language.sql)
            }
        }
        return values
    }

    /// Inserts the payloads of the `deliveries` whose payload is not `shared`, by the row ids `inserted` (their
    /// INSERT's `RETURNING id, apns_id`) gave them.
    private static func insertOwnPayloads(
        of deliveries: ArraySlice<NewDelivery>, shared: SharedPayloads, inserted rows: [[SQLValue]],
        _ connection: any SQLConnection
    ) throws(StoreError) {
        var ids: [String: Int64] = [:]
        for row in rows { if let id = row[0].integer, let apnsID = row[1].text { ids[apnsID] = id } }
        var payloads: [SQLValue] = []
        for delivery in deliveries where shared.isOwn(delivery) {
            guard let id = ids[delivery.apnsID] else {
                throw StoreError(
                    .inconsistent, "an inserted recipient did not come back", context: "INSERT INTO deliveries")
            }
            payloads += [.integer(id), .blob(delivery.payload)]
        }
        for rows in StatementShapes.chunks(payloads.count / 2) {
            try connection.query(
                "INSERT INTO payloads (delivery_id, payload) VALUES "
                    + Array(repeating: "(?, ?)", count: rows.count).joined(separator: ", "),
                Array(payloads[2 * rows.lowerBound..<2 * rows.upperBound]))
        }
    }

    private static let queuedState = SQLValue.text(DeliveryState.queued.rawValue)
    private static let skippedState = SQLValue.text(DeliveryState.skipped.rawValue)

    /// `INSERT INTO deliveries … VALUES` with `count` rows (with `keyed`, rows naming an experiment's variant
    /// or a language: those columns too), written once per row count (a few: see ``StatementShapes``).
    private static func insertDeliveries(_ count: Int, keyed: Bool) -> String {
        (keyed ? keyedInsertStatements[count] : insertStatements[count]) ?? insertText(count, keyed: keyed)
    }

    private static let insertStatements = Dictionary(
        uniqueKeysWithValues: StatementShapes.sizes.map { ($0, insertText($0, keyed: false)) })

    private static let keyedInsertStatements = Dictionary(
        uniqueKeysWithValues: StatementShapes.sizes.map { ($0, insertText($0, keyed: true)) })

    private static func insertText(_ count: Int, keyed: Bool) -> String {
        keyed
            ? "INSERT INTO deliveries (notification_id, app, token, apns_id, state, due_at, reason, finished_at, "
                + "variant, language) VALUES "
                + Array(repeating: "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", count: count).joined(separator: ", ")
            : "INSERT INTO deliveries (notification_id, app, token, apns_id, state, due_at, reason, finished_at) "
                + "VALUES " + Array(repeating: "(?, ?, ?, ?, ?, ?, ?, ?)", count: count).joined(separator: ", ")
    }

    public func enqueue(
        _ spec: NotificationSpec, deliveries: [NewDelivery], idempotency: IdempotencyKey?, now: Date
    ) throws(StoreError) -> EnqueueResult {
        try enqueueRecorded(spec, deliveries: deliveries, idempotency: idempotency, now: now).result
    }

    /// A single notification's few recipients come back from their `INSERT`: its record is built from the values
    /// written (queued, or leased when handed to an idle worker), not read back.
    public func enqueueRecorded(
        _ spec: NotificationSpec, deliveries: [NewDelivery], idempotency: IdempotencyKey?, now: Date
    ) throws(StoreError) -> (result: EnqueueResult, record: NotificationRecord?) {
        // Counted while it waits for the connection too: the commits of a burst wake the workers once.
        committedWork.intakeBegan()
        defer { committedWork.intakeEnded() }
        let request = EnqueuedNotification(spec: spec, deliveries: deliveries, idempotency: idempotency, now: now)
        // Committed with the notifications that arrive while an earlier group commits (one transaction and one
        // fsync for the group); answered once it is durable. Other processes are told after the commit, not by a
        // NOTIFY inside it (see PostgresNotifier: that serialised every intake's commit behind the fsyncs).
        let answer = try notificationIntake.submit(request, weight: max(1, deliveries.count), run: enqueueGroup)
        // Handed to an idle worker already leased: nothing is due for anyone else to wake for.
        if case .created = answer.result, !deliveries.isEmpty, !answer.handedOff { committedWorkHere() }
        return (answer.result, answer.record)
    }

    /// A group of notifications in one transaction; should it fail, each in its own (one bad request does
    /// not fail the others).
    private func enqueueGroup(_ requests: [EnqueuedNotification])
        -> [Result<IntakeAnswer, StoreError>]
    {
        if requests.count > 1 {
            let together = Result { () throws(StoreError) -> [IntakeAnswer] in
                try enqueueTogether(requests[...])
            }
            if case .success(let results) = together { return results.map { .success($0) } }
        }
        return requests.indices.map { index in
            Result { () throws(StoreError) -> IntakeAnswer in
                try enqueueTogether(requests[index...index])[0]
            }
        }
    }

    /// `requests` in one transaction; those leased at intake are handed to the workers once it has committed,
    /// or their claims on the workers given back if it did not.
    private func enqueueTogether(_ requests: ArraySlice<EnqueuedNotification>) throws(StoreError)
        -> [IntakeAnswer]
    {
        let handOff = self.handOff.withLock { $0 }
        var leases: [IntakeLease?] = []
        let results: [IntakeAnswer]
        do {
            results = try with { connection throws(StoreError) in
                try connection.transaction { () throws(StoreError) -> [IntakeAnswer] in
                    var results: [IntakeAnswer] = []
                    for request in requests {
                        var lease: IntakeLease?
                        results.append(try enqueue(request, connection, handOff: handOff, lease: &lease))
                        leases.append(lease)
                    }
                    return results
                }
            }
        } catch {
            for _ in leases.compactMap({ $0 }) { handOff?.unclaim() }
            throw error
        }
        for case let lease? in leases {
            headers.keep(spec: lease.headers, for: lease.notification)
            handOff?.hand(lease.leased, until: lease.until)
        }
        return zip(results, leases).map { answer, lease in
            var answer = answer
            answer.handedOff = lease != nil
            return answer
        }
    }

    /// One notification's rows, in the caller's transaction (an experiment's campaign adds its own rows
    /// after); the caller wakes the workers once it has committed (``committedWorkHere()``).
    func enqueue(_ request: EnqueuedNotification, _ connection: any SQLConnection) throws(StoreError)
        -> EnqueueResult
    {
        var lease: IntakeLease?
        return try enqueue(request, connection, handOff: nil, lease: &lease).result
    }

    /// ``enqueue(_:_:)``, with its recipients leased in this transaction (`lease`, to hand over after the
    /// commit) when it may be (``IntakeLease/possible(for:)``) and `handOff` has a worker for it (idle, or busy
    /// within its backlog: ``LeaseHandOff/claim()``); such a notification's record is answered as committed.
    private func enqueue(
        _ request: EnqueuedNotification, _ connection: any SQLConnection, handOff: LeaseHandOff?,
        lease: inout IntakeLease?
    ) throws(StoreError) -> IntakeAnswer {
        let (spec, deliveries, idempotency, now) = (request.spec, request.deliveries, request.idempotency, request.now)
        if let idempotency {
            let inserted = try connection.run(
                """
                INSERT INTO idempotency_keys (app, key, fingerprint, notification_id, created_at)
                VALUES (?, ?, ?, ?, ?) ON CONFLICT (app, key) DO NOTHING
                """,
                [
                    .text(spec.app), .text(idempotency.key), .text(idempotency.fingerprint), .text(spec.id),
                    Self.time(now),
                ])
            if inserted.changes == 0 {
                let row = try connection.query(
                    "SELECT notification_id, fingerprint FROM idempotency_keys WHERE app = ? AND key = ?",
                    [.text(spec.app), .text(idempotency.key)])
                guard let first = row.first, let id = first[0].text else {
                    throw StoreError(.inconsistent, "the idempotency key vanished", context: "enqueue")
                }
                return IntakeAnswer(result: .replayed(id: id, sameRequest: first[1].text == idempotency.fingerprint))
            }
        }
        try connection.query(
            """
            INSERT INTO notifications (id, app, kind, state, topic, push_type, priority, expiration,
                collapse_id, created_at, request, wake_on_outcome)
            VALUES (?, ?, ?, 'open', ?, ?, ?, ?, ?, ?, ?, ?)
            """,
            [
                .text(spec.id), .text(spec.app), .text(spec.kind.rawValue), .text(spec.topic),
                .text(spec.pushType), spec.priority.sql, spec.expiration.sql, spec.collapseID.sql,
                Self.time(spec.createdAt), .blob(spec.request), spec.wakesWaiters ? .integer(1) : .null,
            ])
        try Self.storeTiming(of: spec, connection)
        var shared = SharedPayloads()
        var tallies = CampaignTallies()
        var newIDs: [Int64]? = []
        // A single notification's few recipients: their ids come back from the INSERT (for the lease at intake
        // and the 202, built from what was written instead of read back).
        let recordable = IntakeLease.possible(for: request)
        let handOff = recordable ? handOff : nil
        var byApnsID: [String: Int64]? = recordable ? [:] : nil
        var inactiveSeen = false
        let first = try insert(
            deliveries[...], of: spec, shared: &shared, now: now, tallies: &tallies, newIDs: &newIDs,
            byApnsID: &byApnsID, inactiveSeen: &inactiveSeen, into: connection)
        var skipped = (count: 0, ids: Set<Int64>())
        // A single notification's INSERT said whether any device is inactive: without one, no UPDATE to skip.
        if let first, byApnsID == nil || inactiveSeen {
            skipped = try skipInactive(
                notification: spec.id, from: first, now: now, returningIDs: recordable, connection)
            if spec.kind == .campaign { tallies.move(spec.id, from: .queued, to: .skipped, skipped.count) }
        }
        var leasedTo: (token: String, until: Date)?
        if first != nil, let handOff, skipped.count < deliveries.count, handOff.claim() {
            leasedTo = (UUID().uuidString.lowercased(), now + handOff.leaseSeconds)
        }
        do {
            if let first {
                try QueueBatches.create(
                    notification: spec.id, from: first, ids: newIDs, due: spec.sendAt ?? now,
                    ownDue: Self.timesOwnDue(deliveries[...]), leasedTo: leasedTo, connection)
                try Self.markThrottled(spec, connection)
            }
            try tallies.write(into: connection)
        } catch {
            // Claimed, but the rows are not leased: the worker is free again.
            if leasedTo != nil { handOff?.unclaim() }
            throw error
        }
        var answer = IntakeAnswer(result: .created(id: spec.id))
        if let byApnsID {
            answer.record = NotificationRecord(
                committed: request, ids: byApnsID, skipped: skipped.ids, leased: leasedTo != nil)
            if let leasedTo {
                lease = IntakeLease(
                    request, ids: byApnsID, skipped: skipped.ids, token: leasedTo.token, until: leasedTo.until)
            }
        }
        return answer
    }

    public func append(
        campaign id: String, now: Date,
        produce: (_ emit: (NewDelivery) throws(StoreError) -> Void) throws(StoreError) -> Void
    ) throws(StoreError) -> Int? {
        switch try append(campaign: id, idempotency: nil, now: now, produce: produce) {
        case .added(let count): count
        case .replayed, nil: nil
        }
    }

    /// A page with its `Idempotency-Key`, kept in `idempotency_keys` under ``pageKey(campaign:_:)``.
    public func append(
        campaign id: String, idempotency: IdempotencyKey, now: Date,
        produce: (_ emit: (NewDelivery) throws(StoreError) -> Void) throws(StoreError) -> Void
    ) throws(StoreError) -> PageAppendResult? {
        try append(campaign: id, idempotency: Optional(idempotency), now: now, produce: produce)
    }

    private func append(
        campaign id: String, idempotency: IdempotencyKey?, now: Date,
        produce: (_ emit: (NewDelivery) throws(StoreError) -> Void) throws(StoreError) -> Void
    ) throws(StoreError) -> PageAppendResult? {
        guard dialect.hasOneWriter else {
            let added = try with { connection throws(StoreError) in
                try connection.transaction { () throws(StoreError) -> PageAppendResult? in
                    // PostgreSQL copies a page at once, streamed from `produce` a copy at a time.
                    let added = try append(campaign: id, idempotency: idempotency, now: now, connection) {
                        flush throws(StoreError) in
                        var buffer: [NewDelivery] = []
                        buffer.reserveCapacity(Self.rowsPerCopy)
                        // `produce` calls back into `flush` only from this thread, within this call.
                        try withoutActuallyEscaping(flush) { flush throws(StoreError) in
                            try produce { (delivery: NewDelivery) throws(StoreError) in
                                buffer.append(delivery)
                                if buffer.count == Self.rowsPerCopy {
                                    try flush(buffer[...])
                                    buffer.removeAll(keepingCapacity: true)
                                }
                            }
                        }
                        try flush(buffer[...])
                    }
                    return added
                }
            }
            if case .added(let count) = added, count > 0 { committedWorkHere() }
            return added
        }
        // SQLite: the page is read on the caller's thread, then committed with the pages that arrive while the
        // one writer commits others (one transaction and one fsync for the group); answered once it is durable.
        var deliveries: [NewDelivery] = []
        try produce { (delivery: NewDelivery) throws(StoreError) in deliveries.append(delivery) }
        let added = try intake.submit(
            AppendedPage(campaign: id, now: now, deliveries: deliveries, idempotency: idempotency),
            weight: deliveries.count, run: appendGroup)
        if case .added(let count) = added, count > 0 { committedWorkHere() }
        return added
    }

    /// Appends a group of pages in one transaction; if any fails, each again in its own (a failed page does
    /// not fail the others).
    private func appendGroup(_ pages: [AppendedPage]) -> [Result<PageAppendResult?, StoreError>] {
        func one(_ page: AppendedPage, _ connection: any SQLConnection) throws(StoreError) -> PageAppendResult? {
            // SQLite inserts in multi-row statements, straight from the page's array.
            try append(campaign: page.campaign, idempotency: page.idempotency, now: page.now, connection) {
                flush throws(StoreError) in
                for start in stride(from: 0, to: page.deliveries.count, by: Self.rowsPerStatement) {
                    try flush(page.deliveries[start..<min(start + Self.rowsPerStatement, page.deliveries.count)])
                }
            }
        }
        // Without SQLite's check of each new row's notification_id against notifications (a lookup per
        // recipient, ~0.7 µs): `append` reads the campaign's row first in the same transaction and adds
        // nothing unless it is there, and notifications are never deleted, so the check cannot fail
        // (PostgreSQL dropped it in migration 8i). The pragma only takes effect outside a transaction.
        func unchecked<Result>(_ body: (any SQLConnection) throws(StoreError) -> Result) throws(StoreError) -> Result {
            try with { connection throws(StoreError) in
                try connection.script("PRAGMA foreign_keys=OFF")
                defer { try? connection.script("PRAGMA foreign_keys=ON") }
                return try body(connection)
            }
        }
        if pages.count > 1 {
            let together = Result { () throws(StoreError) -> [PageAppendResult?] in
                try unchecked { connection throws(StoreError) in
                    try connection.transaction { () throws(StoreError) -> [PageAppendResult?] in
                        var counts: [PageAppendResult?] = []
                        for page in pages { counts.append(try one(page, connection)) }
                        return counts
                    }
                }
            }
            if case .success(let counts) = together { return counts.map { .success($0) } }
        }
        return pages.map { page in
            Result { () throws(StoreError) -> PageAppendResult? in
                try unchecked { connection throws(StoreError) in
                    try connection.transaction { () throws(StoreError) -> PageAppendResult? in
                        try one(page, connection)
                    }
                }
            }
        }
    }

    /// One page of a campaign's recipients, inside the caller's transaction: `feed` hands its recipients to
    /// `flush` a statement's or a COPY's worth at a time.
    func append(
        campaign id: String, idempotency: IdempotencyKey?, now: Date, _ connection: any SQLConnection,
        feed: (_ flush: (ArraySlice<NewDelivery>) throws(StoreError) -> Void) throws(StoreError) -> Void
    ) throws(StoreError) -> PageAppendResult? {
        // PostgreSQL: the campaign's row stays locked until the page is in, so a cancel waits for the
        // page and then cancels it too, or (when first) makes this append see the campaign closed.
        guard
            let row = try connection.query(
                "SELECT \(Self.specColumns) FROM notifications WHERE id = ? AND kind = 'campaign'"
                    + dialect.lockRow,
                [.text(id)]
            ).first
        else { return nil }
        let (spec, state) = Self.spec(row)
        // A page's key is the campaign's (the row lock above orders concurrent pages of one campaign): a key
        // seen before is answered from what was stored, even once the campaign is closed.
        let pageKey = idempotency.map { Self.pageKey(campaign: id, $0.key) }
        if let pageKey, let idempotency,
            let seen = try connection.query(
                "SELECT fingerprint FROM idempotency_keys WHERE app = ? AND key = ?", [.text(spec.app), .text(pageKey)]
            ).first
        {
            return .replayed(sameRequest: seen[0].text == idempotency.fingerprint)
        }
        guard state == "open" else { return nil }
        if let pageKey, let idempotency {
            try connection.query(
                """
                INSERT INTO idempotency_keys (app, key, fingerprint, notification_id, created_at)
                VALUES (?, ?, ?, ?, ?)
                """,
                [.text(spec.app), .text(pageKey), .text(idempotency.fingerprint), .text(id), Self.time(now)])
        }
        var count = 0
        var first: Int64?
        var shared = SharedPayloads()
        var tallies = CampaignTallies()
        var newIDs: [Int64]? = []
        var unmatched: [String: Int64]?
        var inactiveSeen = false
        var skippedAtIntake = false
        var ownDue = false
        try feed { (deliveries: ArraySlice<NewDelivery>) throws(StoreError) in
            count += deliveries.count
            if !skippedAtIntake {
                skippedAtIntake = deliveries.indices.contains { deliveries[$0].skippedBecause != nil }
            }
            if !ownDue { ownDue = Self.timesOwnDue(deliveries) }
            if let lowest = try insert(
                deliveries, of: spec, shared: &shared, now: now, tallies: &tallies, newIDs: &newIDs,
                byApnsID: &unmatched, inactiveSeen: &inactiveSeen, into: connection)
            {
                first = min(first ?? lowest, lowest)
            }
        }
        if let first {
            let skipped = try skipInactive(notification: spec.id, from: first, now: now, connection).count
            tallies.move(spec.id, from: .queued, to: .skipped, skipped)
            var ids = ownDue ? nil : newIDs
            if ids == nil, skipped == 0, !skippedAtIntake, !ownDue {
                ids = try Self.consecutiveIDs(from: first, count: count, connection)
            }
            try QueueBatches.create(
                notification: spec.id, from: first, ids: ids, due: spec.sendAt ?? now, ownDue: ownDue, connection)
            try Self.markThrottled(spec, connection)
        }
        try tallies.write(into: connection)
        return .added(count)
    }

    /// Where a campaign page's `Idempotency-Key` is kept among the create routes' keys of the app: prefixed
    /// with the campaign and a line feed, which no HTTP header value holds, so it meets no create route's key.
    static func pageKey(campaign id: String, _ key: String) -> String {
        "campaign \(id) page\n" + key
    }

    /// The ids of an SQLite page of `count` new rows, all at or above `first` (the bound ``insert`` gave),
    /// when they are exactly `first` and the ones after it (as SQLite numbers the rows of its one writer):
    /// then the page's batches are made from them, instead of reading every row back through a window query
    /// (about 1.5 µs a recipient). `nil` when they are not, and the page is read back.
    private static func consecutiveIDs(from first: Int64, count: Int, _ connection: any SQLConnection)
        throws(StoreError) -> [Int64]?
    {
        guard count > 0,
            let last = try connection.query("SELECT MAX(id) FROM deliveries").first?[0].integer,
            last - first + 1 == Int64(count)
        else { return nil }
        return Array(first...last)
    }

    public func cancel(campaign id: String, now: Date) throws(StoreError) -> NotificationRecord? {
        try with { connection throws(StoreError) in
            try connection.transaction { () throws(StoreError) -> NotificationRecord? in
                let changed = try connection.run(
                    "UPDATE notifications SET state = 'cancelled' WHERE id = ? AND kind = 'campaign'", [.text(id)])
                guard changed.changes == 1 else { return nil }
                let cancelled = try QueueBatches.cancel(id, now: now, connection)
                var tallies = CampaignTallies()
                tallies.move(id, from: .queued, to: .cancelled, cancelled)
                try tallies.write(into: connection)
                return try record(id: id, limit: 0, after: 0, connection)
            }
        }
    }
}
