import Foundation
import Pushbutton
import PushbuttonReceiver
import PushbuttonSQLite
import PushbuttonSupport
import Testing

@testable import PushbuttonOutbox

/// Rows are read by column name, and what cannot be read as it was stored is corruption: never an entry sent
/// without its body, or with a default standing in for a value.
@Suite struct CorruptEntryTests {
    @Test func anEntryWhoseBodyIsNotJSONIsDeadLetteredAndNeverSent() async throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        let outbox = try fixture.outbox()
        try await outbox.enqueue(Fixture.request("broken"))
        try await outbox.enqueue(Fixture.request("fine"))
        try await outbox.query("UPDATE outbox SET body = X'7B7B00' WHERE idempotency_key = 'broken'")
        let sender = ScriptedSender([])
        let report = try await outbox.drain(sender: sender)
        #expect(report.delivered == 1 && report.deadLettered == 1)
        #expect(sender.received.withLock { $0.map { $0.headers["Idempotency-Key"] } } == ["fine"])
        let reason = try await outbox.query("SELECT last_error FROM outbox WHERE idempotency_key = 'broken'")
        #expect(reason.first?.first?.text?.hasPrefix("corrupt: ") == true)
        #expect(reason.first?.first?.text?.contains("the column 'body' is not JSON") == true)
    }

    @Test func listingACorruptEntryIsAnErrorNamingTheEntryAndTheColumn() async throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        let outbox = try fixture.outbox()
        guard case .added(let id) = try await outbox.enqueue(Fixture.request("k")) else {
            Issue.record("not added")
            return
        }
        // SQLite keeps text in an INTEGER column that cannot hold it as a number.
        try await outbox.query("UPDATE outbox SET attempts = 'many' WHERE id = ?", [.integer(id)])
        await #expect {
            try await outbox.entries(.pending)
        } throws: { error in
            guard let error = error as? OutboxError else { return false }
            return error.code == .corruptEntry && error.entryID == id
                && error.message.contains("the column 'attempts' holds text, not an integer")
                && error.message.contains("purge")
        }
    }

    @Test func aColumnTheRowDoesNotHaveIsAnErrorNotADefault() throws {
        let row = SQLiteRow(positions: ["id": 0, "body": 1], values: [.integer(7), .null])
        #expect(try row.integer("id") == 7)
        #expect(try row.optionalBlob("body") == nil)
        #expect {
            try row.optionalText("url")
        } throws: { error in
            "\(error)".contains("the column 'url' is missing from the row (columns: body, id)")
        }
        #expect(throws: SQLiteError.self) { try row.text("body") }
    }
}
