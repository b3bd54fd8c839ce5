import Foundation
import Pushbutton
import PushbuttonOutbox
import PushbuttonReceiver
import PushbuttonReceiverTesting
import PushbuttonSupport
import Testing

/// A sender that answers 200 at once, or waits until its task is cancelled (a network that never answers).
final class GateSender: OutboxSender {
    let hangs: Bool
    let sent = Locked([String]())
    init(hangs: Bool) { self.hangs = hangs }

    func send(_ request: OutgoingRequest) async throws -> Int {
        sent.withLock { $0.append(request.url) }
        if hangs {
            let (never, _) = AsyncStream.makeStream(of: Void.self)
            for await _ in never {}  // ends when the task is cancelled
            throw CancellationError()
        }
        return 200
    }
}

/// A background tap reaches the backend during the tap; the outbox stays the fallback.
@Suite struct ImmediateDeliveryTests {
    static func request(_ key: String) -> BackendRequest {
        BackendRequest(
            url: "https://api.example.com/like", idempotencyKey: key, notificationIdentifier: "n1",
            actionIdentifier: "like")
    }

    static func outbox() throws -> (Outbox, URL) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pb-now-\(UUID().uuidString)")
        return (try Outbox(path: directory.appendingPathComponent("taps.sqlite").path), directory)
    }

    @Test func theRequestIsDeliveredBeforeDeliverReturns() async throws {
        let (outbox, directory) = try Self.outbox()
        defer { try? FileManager.default.removeItem(at: directory) }
        let sender = GateSender(hangs: false)
        let backend = ImmediateDelivery(outbox: outbox, sender: sender, budget: .seconds(15), clock: ManualClock())
        let outcomes = Locked([ImmediateDelivery.Attempt]())
        backend.observe { outcome in outcomes.withLock { $0.append(outcome) } }

        try await backend.deliver(Self.request("like-1"))  // the clock never moves: no deadline involved

        #expect(sender.sent.withLock { $0 } == ["https://api.example.com/like"])
        #expect(try await outbox.status().delivered == 1)
        guard case .drained(let report)? = outcomes.withLock({ $0.first }) else {
            Issue.record("expected a drained attempt, got \(outcomes.withLock { $0 })")
            return
        }
        #expect(report.delivered == 1)
    }

    @Test func atTheBudgetDeliverReturnsAndTheOutboxKeepsTheRequest() async throws {
        let (outbox, directory) = try Self.outbox()
        defer { try? FileManager.default.removeItem(at: directory) }
        let clock = ManualClock()
        let backend = ImmediateDelivery(
            outbox: outbox, sender: GateSender(hangs: true), budget: .seconds(15), clock: clock)
        let outcomes = Locked([ImmediateDelivery.Attempt]())
        backend.observe { outcome in outcomes.withLock { $0.append(outcome) } }

        let tap = Task { try await backend.deliver(Self.request("like-2")) }
        await clock.waitForSleepers()
        clock.advance(by: .seconds(15))
        try await tap.value

        #expect(outcomes.withLock { $0 } == [.outOfTime])
        let status = try await outbox.status()
        #expect(status.delivered == 0)
        #expect(status.pending + status.inFlight == 1)  // the fallback: a later worker sends it
    }

    /// Through the router: the system's completion handler is called only after the attempt.
    @Test func theRoutersCompletionWaitsForTheAttempt() async throws {
        let (outbox, directory) = try Self.outbox()
        defer { try? FileManager.default.removeItem(at: directory) }
        let sender = GateSender(hangs: false)
        let clock = ManualClock()
        let backend = ImmediateDelivery(outbox: outbox, sender: sender, clock: clock)
        let center = SimulatedNotificationCenter()
        // The router's deadline on the same clock, which never moves here: on a loaded machine a wall-clock
        // deadline could end the wait before the attempt and make the test about the machine's speed.
        let router = ResponseRouter(center: center, backend: backend, clock: clock)
        var payload = Payload.interactive(category: "message", body: "Lunch?")
        payload.addAction(
            ActionSpec(ActionSpec.callback, arguments: ["url": "https://api.example.com/like"]), forButton: "like")
        let response = NotificationResponse(
            notification: DeliveredNotification(identifier: "n1", date: Date(), payload: payload),
            actionIdentifier: "like")
        let delivered = Locked(-1)
        await router.route(response) {
            delivered.withLock { $0 = sender.sent.withLock { $0.count } }
        }
        #expect(delivered.withLock { $0 } == 1)
    }
}
