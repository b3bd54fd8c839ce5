import Foundation
import Pushbutton
import PushbuttonReceiver
import PushbuttonSQLite
import PushbuttonSupport
import Testing

@testable import PushbuttonOutbox

/// An entry's last failure is typed (code and status) beside its text, so callers can branch on it.
@Suite struct OutboxFailureTests {
    @Test func eachAnswerLeavesItsKindOfFailure() async throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        let outbox = try fixture.outbox(OutboxOptions(maximumConcurrentRequests: 1))
        for key in ["refused", "busy", "moved", "offline"] { try await outbox.enqueue(Fixture.request(key)) }
        _ = try await outbox.drain(sender: ScriptedSender([400, 503, 302, nil]))
        let dead = try #require(try await outbox.entries(.dead).first)
        #expect(
            dead.lastCause == OutboxFailure(.refused, status: 400, message: "HTTP 400: the server refused the request"))
        let pending = try await outbox.entries(.pending)
        #expect(pending.map { $0.lastCause?.code } == [.retryableStatus, .redirect, .network])
        #expect(pending.map { $0.lastCause?.status } == [503, 302, nil])
        #expect(pending.map { $0.lastCause?.message } == pending.map(\.lastError))
    }

    @Test func expiryAndEvictionAreTheirOwnKindsAndADeliveryClearsTheCause() async throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        let outbox = try fixture.outbox(
            OutboxOptions(timeToLive: .seconds(10), capacity: 1, whenFull: .deadLetterOldest))
        try await outbox.enqueue(Fixture.request("old"))
        try await outbox.enqueue(Fixture.request("new"))
        #expect(try await outbox.entries(.dead).first?.lastCause?.code == .evicted)
        _ = try await outbox.drain(sender: ScriptedSender([500]))
        #expect(try await outbox.entries(.pending).first?.lastCause?.code == .retryableStatus)
        fixture.advance(11)
        _ = try await outbox.drain(sender: ScriptedSender([]))
        #expect(try await outbox.entries(.dead).map { $0.lastCause?.code } == [.evicted, .expired])

        try await outbox.enqueue(Fixture.request("fine"))
        _ = try await outbox.drain(sender: ScriptedSender([]))
        #expect(try await outbox.entries(.delivered).first?.lastCause == nil)
    }

    @Test func aFailureRecordedBeforeCausesWereKeptHasNoTypedCause() async throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        let outbox = try fixture.outbox()
        try await outbox.enqueue(Fixture.request("k"))
        try await outbox.query("UPDATE outbox SET last_error = 'HTTP 500', last_cause = NULL")
        let entry = try #require(try await outbox.entries(.pending).first)
        #expect(entry.lastError == "HTTP 500" && entry.lastCause == nil)
    }
}
