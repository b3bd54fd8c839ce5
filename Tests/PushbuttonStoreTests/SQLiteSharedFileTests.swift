import Foundation
import PushbuttonStore
import PushbuttonTestSupport
import Testing

/// Another process opening the gateway's SQLite store (an operator's `sqlite3 gateway.db 'select …'`, a backup
/// script) must leave the gateway's WAL alone: if this process held no lock on the database file, that process
/// would take itself for the last connection, checkpoint and unlink `-wal`/`-shm` when it closes, and every later
/// commit would go to a deleted file and be lost on a crash (red-team H1, issue 32).
@Suite(.timeLimit(.minutes(5)))
struct SQLiteSharedFileTests {
    static let sqlite3 = URL(fileURLWithPath: "/usr/bin/sqlite3")

    static func notification(_ id: String) -> NotificationSpec {
        NotificationSpec(id: id, app: "a", kind: .notification, topic: "t", createdAt: Date())
    }

    /// What a fresh process sees in the store's files: the ids of the notifications, in order.
    static func idsSeenByAnotherProcess(_ path: String) async throws -> [String] {
        let result = try await Subprocess.run(Self.sqlite3, [path, "SELECT id FROM notifications ORDER BY id"])
        #expect(result.status == 0, "sqlite3 failed: \(result.stderr)")
        return result.stdout.split(separator: "\n").map(String.init)
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/sqlite3")))
    func anotherProcessOpeningTheStoreLeavesItsWALInPlace() async throws {
        let directory = try TemporaryDirectory(prefix: "pushbutton-wal")
        defer { directory.remove() }
        let path = directory.url.appendingPathComponent("gateway.db").path
        // As the gateway opens it: a writer (which migrates) and two readers, all open together.
        let store = try SQLGatewayStore.sqlite(path: path)
        _ = try store.enqueue(Self.notification("n1"), deliveries: [], idempotency: nil, now: Date())
        #expect(try store.notification(id: "n1", limit: 0, after: 0) != nil)
        let wal = try FileManager.default.attributesOfItem(atPath: path + "-wal")[.systemFileNumber] as? Int

        // The operator's look, opening and closing the file in another process.
        #expect(try await Self.idsSeenByAnotherProcess(path) == ["n1"])

        // Committed after the look: it must be in the files everyone else sees, not in an unlinked WAL.
        _ = try store.enqueue(Self.notification("n2"), deliveries: [], idempotency: nil, now: Date())
        #expect(FileManager.default.fileExists(atPath: path + "-wal"), "the store's WAL was unlinked")
        let walAfter = try? FileManager.default.attributesOfItem(atPath: path + "-wal")[.systemFileNumber] as? Int
        #expect(walAfter == wal, "the WAL file is not the one the store opened")
        #expect(try await Self.idsSeenByAnotherProcess(path) == ["n1", "n2"])
        withExtendedLifetime(store) {}
    }
}
