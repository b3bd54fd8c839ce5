import Foundation
import Pushbutton
import PushbuttonReceiver
import PushbuttonSQLite
import PushbuttonSupport
import PushbuttonTestSupport
import Testing

@testable import PushbuttonOutbox

/// Answers 200 after `delay`, recording how many requests were open at once, overall and per notification. With
/// `holdsUntilOverlap`, no request is answered before two have been open at once: a drain that sends one at a
/// time never gets its first answer (and the suite's time limit ends it), however long `delay` is.
final class OverlapSender: OutboxSender {
    struct State {
        var open = 0
        var mostOpen = 0
        var openByNotification: [String: Int] = [:]
        var notificationOverlaps = 0
        var arrived: [String] = []
    }
    let delay: Duration
    let holdsUntilOverlap: Bool
    let state = Locked(State())
    private let opened = ChangeSignal()
    init(delay: Duration, holdsUntilOverlap: Bool = false) {
        self.delay = delay
        self.holdsUntilOverlap = holdsUntilOverlap
    }

    func send(_ request: OutgoingRequest) async throws -> Int {
        let notification = request.url
        state.withLock { state in
            state.open += 1
            state.mostOpen = max(state.mostOpen, state.open)
            state.openByNotification[notification, default: 0] += 1
            if state.openByNotification[notification, default: 0] > 1 { state.notificationOverlaps += 1 }
            state.arrived.append(request.headers["Idempotency-Key"] ?? "")
        }
        opened.notify()
        if holdsUntilOverlap { await opened.wait { state.withLock { $0.mostOpen >= 2 } } }
        // Sleeps by design: the double stands for a backend that takes `delay` to answer, so that a second send
        // of one notification while the first is open would be seen (no result waits on it).
        try? await Task.sleep(for: delay)
        state.withLock { state in
            state.open -= 1
            state.openByNotification[notification, default: 0] -= 1
        }
        return 200
    }
}

@Suite(.timeLimit(.minutes(5))) struct ConcurrentDrainTests {
    /// A request whose URL names its notification, so the sender can tell notifications apart.
    static func request(_ key: String, notification: String) -> BackendRequest {
        BackendRequest(
            url: "https://api.test/\(notification)", body: ["key": .string(key)], idempotencyKey: key,
            notificationIdentifier: notification, actionIdentifier: "like")
    }

    @Test func theDrainKeepsSeveralRequestsOpenButNeverMoreThanTheCap() async throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        let outbox = try fixture.outbox(OutboxOptions(maximumConcurrentRequests: 4))
        _ = await outbox.enqueue(contentsOf: (0..<24).map { Self.request("k\($0)", notification: "n\($0)") })
        let sender = OverlapSender(delay: .milliseconds(20), holdsUntilOverlap: true)
        let report = try await outbox.drain(sender: sender)
        #expect(report.delivered == 24 && report.attempted == 24 && report.remaining == 0)
        let mostOpen = sender.state.withLock { $0.mostOpen }
        #expect(mostOpen <= 4)
        #expect(mostOpen >= 2)
    }

    @Test func twoEntriesOfOneNotificationAreNeverInFlightTogetherAndKeepTheirOrder() async throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        let outbox = try fixture.outbox(OutboxOptions(maximumConcurrentRequests: 8))
        var requests: [BackendRequest] = []
        for index in 0..<5 {
            requests.append(Self.request("same-\(index)", notification: "same"))
            requests.append(Self.request("other-\(index)", notification: "other-\(index)"))
        }
        _ = await outbox.enqueue(contentsOf: requests)
        let sender = OverlapSender(delay: .milliseconds(10), holdsUntilOverlap: true)
        #expect(try await outbox.drain(sender: sender).delivered == 10)
        let state = sender.state.withLock { $0 }
        #expect(state.notificationOverlaps == 0)
        #expect(state.arrived.filter { $0.hasPrefix("same-") } == (0..<5).map { "same-\($0)" })
        #expect(state.mostOpen >= 2)
    }

    @Test func claimsAndOutcomesAreCommittedInGroupsNotTwicePerEntry() async throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        let outbox = try fixture.outbox(OutboxOptions(maximumConcurrentRequests: 8))
        _ = await outbox.enqueue(contentsOf: (0..<40).map { Self.request("k\($0)", notification: "n\($0)") })
        let before = await outbox.commitsForTests()
        #expect(try await outbox.drain(sender: OverlapSender(delay: .milliseconds(5))).delivered == 40)
        let commits = await outbox.commitsForTests() - before
        print("concurrent drain: 40 entries delivered in \(commits) commits")
        // One claim and one outcome commit each would be 80.
        #expect(commits <= 41)
    }

    @Test func aFailedAttemptInAWindowIsRetriedAndTheOthersDelivered() async throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        let outbox = try fixture.outbox(OutboxOptions(baseBackoff: .seconds(1), maximumConcurrentRequests: 4))
        _ = await outbox.enqueue(contentsOf: (0..<6).map { Self.request("k\($0)", notification: "n\($0)") })
        let sender = ScriptedSender([200, 503, 200, nil, 200, 400])
        let report = try await outbox.drain(sender: sender)
        #expect(report.attempted == 6 && report.delivered == 3 && report.retried == 2 && report.deadLettered == 1)
        let status = try await outbox.status()
        #expect(status.pending == 2 && status.delivered == 3 && status.dead == 1 && status.inFlight == 0)
    }
}

@Suite struct DrainDurabilityTests {
    @Test func theDrainsUnsyncedCommitsLeaveEveryOtherWriteFsynced() async throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        let outbox = try fixture.outbox()
        try await outbox.enqueue(Fixture.request("k"))
        #expect(try await outbox.drain(sender: ScriptedSender([])).delivered == 1)
        // 2 is FULL: a tap enqueued (or a tap-log row written) after a drain is on disk when it returns.
        #expect(try await outbox.query("PRAGMA synchronous").first?.first == .integer(2))
    }
}
