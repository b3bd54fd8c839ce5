import Foundation
import Pushbutton
import PushbuttonAPNs
import PushbuttonAPNsMock
import PushbuttonReceiverTesting
import PushbuttonSupport
import Testing

/// The sender against the mock with every fault enabled. `make test` sends 3,000 notifications;
/// `make soak` sends 100,000 (PUSHBUTTON_SOAK_COUNT) and prints the figures.
@Suite(.timeLimit(.minutes(30))) struct SoakTests {
    static let count = ProcessInfo.processInfo.environment["PUSHBUTTON_SOAK_COUNT"].flatMap(Int.init) ?? 3000
    /// Whether the soak has its process to itself (`make soak`, which CI runs): only then is the process's resident
    /// memory the sender's and the mock's. In `make test` every other suite runs in the same process at once (one
    /// run there grew 251 MiB while this suite ran), so its growth is printed there, not bounded.
    static let hasItsOwnProcess = ProcessInfo.processInfo.environment["PUSHBUTTON_SOAK_COUNT"] != nil

    /// Resident memory of this process (sender and mock together), in MiB.
    static func residentMiB() -> Double {
        guard let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8),
            let pages = statm.split(separator: " ").dropFirst().first.flatMap({ Double($0) })
        else { return 0 }
        return pages * Double(sysconf(Int32(_SC_PAGESIZE))) / 1_048_576
    }

    @Test func everyNotificationEndsOnceUnderEveryFault() async throws {
        let plan = try FaultPlan(
            parsing: "429=0.02,500=0.01,503=0.01,refuse=0.01,drop=0.0005,delay=0.01,delay-ms=50,silence=0.0005,"
                + "goaway=0.0005,goaway-after=2500,seed=2026")
        let fixture = try await MockFixture(faults: plan, recordingLimit: 0)
        // Silent streams time out when only they are left (MockFixture.expireSilencedRequests): never an answer
        // that a loaded machine merely made slow.
        let deadlines = ManualClock()
        let client = try fixture.client(
            connections: 2, policy: RetryPolicy(maximumAttempts: 10, baseBackoff: .milliseconds(5)),
            transportClock: AnyDurationClock(deadlines))
        let unfinished = UnfinishedSends(Self.count)
        async let timeouts: Void = MockFixture.expireSilencedRequests(clock: deadlines, mock: fixture.mock) {
            unfinished.value
        }
        // Every 100th notification goes to a dead token: a final error that must not be retried.
        for number in stride(from: 100, through: Self.count, by: 100) {
            fixture.mock.registry.unregister(token: MockFixture.token(number))
        }
        let count = Self.count
        let notifications = AsyncStream<APNsNotification> { continuation in
            for number in 1...count {
                continuation.yield(try! MockFixture.notification(token: MockFixture.token(number)))
            }
            continuation.finish()
        }
        // Only what the invariants need, so the figures show the sender's memory, not the test's.
        var seen = Set<UUID>()
        var duplicates = 0
        var delivered = 0
        var rejected = 0
        var failed: [APNsResult] = []
        var memory: [Double] = []
        let started = ContinuousClock.now
        await client.send(notifications, maximumInFlight: 500) { notification, result in
            unfinished.finished()
            if !seen.insert(notification.apnsID).inserted { duplicates += 1 }
            switch result {
            case .delivered: delivered += 1
            case .rejected: rejected += 1
            case .failed: failed.append(result)
            }
            if seen.count % (count / 5) == 0 { memory.append(Self.residentMiB()) }
        }
        let elapsed = ContinuousClock.now - started
        await timeouts
        await client.shutdown()
        let counters = fixture.mock.counters
        await fixture.stop()

        #expect(seen.count == count && duplicates == 0)  // exactly one final result each
        #expect(rejected == count / 100 && failed.isEmpty)
        #expect(counters.accepted == delivered)  // the mock accepted each delivered one exactly once
        #expect(counters.duplicateAcceptances == 0 && counters.retriesAfterFinalError == 0)
        #expect(counters.rejectedByReason["Unregistered"] == count / 100)
        let growth = (memory.last ?? 0) - (memory.first ?? 0)
        if Self.hasItsOwnProcess { #expect(growth < 32, "memory grew by \(growth) MiB") }
        print(
            """
            soak: \(count) notifications in \(elapsed): \(delivered) delivered, \(rejected) rejected, \
            \(failed.count) failed; mock: \(counters.requests) requests on \(counters.connections) connections, \
            faults \(counters.faults.sorted { $0.key < $1.key }), duplicates \(counters.duplicateAcceptances), \
            retries after a final error \(counters.retriesAfterFinalError); resident MiB at each fifth: \
            \(memory.map { ($0 * 10).rounded() / 10 })
            """)
    }
}
