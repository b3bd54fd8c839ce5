import Foundation
import Pushbutton
import PushbuttonReceiver
import PushbuttonSQLite
import PushbuttonSupport
import Testing

@testable import PushbuttonOutbox

/// Callers branch on the error's code and read the fields that belong to it.
@Suite struct OutboxErrorTests {
    @Test func aFullOutboxSaysSoByCodeAndCapacity() async throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        let outbox = try fixture.outbox(OutboxOptions(capacity: 1))
        try await outbox.enqueue(Fixture.request("a"))
        do {
            try await outbox.enqueue(Fixture.request("b"))
            Issue.record("a second entry was stored in an outbox of capacity 1")
        } catch {
            #expect(error.code == .full && error.capacity == 1 && error.sqliteCode == nil)
            #expect("\(error)" == "the outbox is full (1 entries waiting); the entry was not stored")
        }
    }

    @Test func aBusyWorkerAndAnInvalidRequestHaveTheirOwnCodes() async throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        let outbox = try fixture.outbox()
        let lock = try #require(try WorkerLock(databasePath: fixture.path))
        defer { withExtendedLifetime(lock) {} }
        do {
            _ = try await outbox.drain(sender: ScriptedSender([]))
            Issue.record("a second worker drained")
        } catch {
            #expect(error.code == .workerBusy && error.path == fixture.path)
        }
        do {
            try await outbox.enqueue(
                BackendRequest(
                    url: "https://api.test/x", idempotencyKey: "a\r\nb", notificationIdentifier: "n",
                    actionIdentifier: "like"))
            Issue.record("a key with CR LF was stored")
        } catch {
            #expect(error.code == .invalidRequest && error.code != .storage)
        }
    }

    @Test func aStorageFailureCarriesSQLitesResultCode() throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        // A directory where the database file should be: SQLite cannot open it.
        try FileManager.default.createDirectory(atPath: fixture.path, withIntermediateDirectories: true)
        do {
            _ = try Outbox(path: fixture.path)
            Issue.record("an outbox opened on a directory")
        } catch {
            #expect(error.code == .storage && error.sqliteCode != nil)
            #expect(error.message.hasPrefix("outbox storage: "))
        }
    }

    @Test func codesPrintTheirNames() {
        #expect("\(OutboxError.Code.corruptEntry)" == "corruptEntry")
        #expect(
            OutboxError.full(capacity: 3) == .full(capacity: 3) && OutboxError.full(capacity: 3) != .full(capacity: 4))
    }
}
