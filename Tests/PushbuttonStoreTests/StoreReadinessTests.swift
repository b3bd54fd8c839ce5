import Foundation
import PushbuttonSQLite
import PushbuttonSupport
import PushbuttonTestSupport
import Testing

@testable import PushbuttonStore

/// `/readyz` follows whether the SQLite store can write (red-team L7, issue 32): after a write failed for want
/// of space it is not ready, reads still work, and it is ready again once space has come back and a write
/// commits. `PRAGMA max_page_count` stands in for the full disk (SQLite answers it with the same
/// `SQLITE_FULL`), and the file system's free space is injected.
@Suite(.timeLimit(.minutes(5)))
struct StoreReadinessTests {
    static func notification(_ id: String, recipients: Int) -> (NotificationSpec, [NewDelivery]) {
        let spec = NotificationSpec(id: id, app: "a", kind: .notification, topic: "t", createdAt: Date())
        let deliveries = (0..<recipients).map { index in
            NewDelivery(
                token: String(format: "%064x", index), apnsID: UUID().uuidString,
                payload: Array(repeating: UInt8(ascii: "x"), count: 2048))
        }
        return (spec, deliveries)
    }

    static func enqueue(_ store: SQLGatewayStore, _ id: String, recipients: Int = 200) throws(StoreError) {
        let (spec, deliveries) = notification(id, recipients: recipients)
        _ = try store.enqueue(spec, deliveries: deliveries, idempotency: nil, now: Date())
    }

    static func limitPages(_ store: SQLGatewayStore, to pages: Int64) throws(StoreError) {
        try store.pool.with { connection throws(StoreError) in
            try connection.script("PRAGMA max_page_count = \(pages)")
        }
    }

    @Test func aFullDiskMakesTheStoreNotReadyUntilSpaceComesBackAndAWriteCommits() throws {
        let directory = try TemporaryDirectory(prefix: "pushbutton-full")
        defer { directory.remove() }
        let store = try SQLGatewayStore.sqlite(path: directory.path + "/gateway.db")
        let writer = try #require(store.pool.writeHealth.first)
        let space = Locked<UInt64>(4096)
        writer.measureSpace { _ in space.withLock { $0 } }
        try Self.enqueue(store, "n1")
        try store.checkReady()

        // The disk fills up.
        let pages = try store.pool.with { connection throws(StoreError) in
            try connection.query("PRAGMA page_count").first?.first?.integer ?? 0
        }
        try Self.limitPages(store, to: pages)
        let refused = #expect(throws: StoreError.self) { try Self.enqueue(store, "n2") }
        #expect(refused?.message.contains("SQLite code 13") == true, "\(String(describing: refused))")
        let notReady = #expect(throws: StoreError.self) { try store.checkReady() }
        #expect(notReady?.message.contains("writes fail: database or disk is full (SQLite code 13)") == true)
        // Reads still work; a few bytes freed are not enough to try again.
        #expect(try store.notification(id: "n1", limit: 0, after: 0) != nil)
        space.withLock { $0 += 4096 }
        #expect(throws: StoreError.self) { try store.checkReady() }

        // Space comes back: the readiness probe's write commits, and so do the next ones.
        space.withLock { $0 += SQLGatewayStore.spaceToResume }
        try Self.limitPages(store, to: 1_073_741_823)
        try store.checkReady()
        #expect(writer.lastFailure == nil)
        try Self.enqueue(store, "n3")
        #expect(try store.notification(id: "n3", limit: 0, after: 0) != nil)
    }

    @Test func aCommitClearsAnIOErrorAndOtherFailuresAreNotKept() throws {
        let directory = try TemporaryDirectory(prefix: "pushbutton-ioerr")
        defer { directory.remove() }
        let path = directory.path + "/gateway.db"
        let database = try SQLiteDatabase(path: path)
        try database.execute("CREATE TABLE t (id INTEGER PRIMARY KEY)")
        // A constraint failure says nothing about the disk.
        try database.query("INSERT INTO t VALUES (1)")
        #expect(throws: SQLiteError.self) { try database.query("INSERT INTO t VALUES (1)") }
        #expect(database.writeHealth.lastFailure == nil)
        // An I/O error (SQLITE_IOERR_WRITE, extended) is kept until a write commits.
        database.writeHealth.noteFailure(SQLiteError(code: 778, message: "disk I/O error", context: "COMMIT"))
        #expect(database.writeHealth.lastFailure?.code == 778)
        try database.query("SELECT count(*) FROM t")
        #expect(database.writeHealth.lastFailure != nil, "a read is not a write")
        try database.query("INSERT INTO t VALUES (2)")
        #expect(database.writeHealth.lastFailure == nil)
    }
}
