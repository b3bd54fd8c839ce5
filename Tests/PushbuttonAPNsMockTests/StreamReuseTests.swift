import Foundation
import Pushbutton
import PushbuttonAPNsMock
import PushbuttonSupport
import Synchronization
import Testing

@testable import PushbuttonAPNs

/// A bulk send reuses the streams of finished requests (`ClientLoop.recycle`): a reused stream carries
/// nothing of its last request over — each result is its own notification's (delivered, or rejected with
/// its own reason), every notification ends once, and the mock accepts each delivered one once.
@Suite(.timeLimit(.minutes(5))) struct StreamReuseTests {
    @Test func reusedStreamsAnswerForTheirOwnNotification() async throws {
        let fixture = try await MockFixture(topics: [MockFixture.topic], recordingLimit: 0)
        let transport = try NGHTTP2Transport(
            .init(environment: fixture.mock.environment, connections: 1), clock: MockFixture.stoppedClock)
        let client = APNsClient(
            transport: transport,
            tokens: TokenProvider(key: fixture.key, keyID: MockFixture.keyID, teamID: MockFixture.teamID),
            requestTimeout: .seconds(10))
        let count = 3000
        // Every seventh goes to a topic the key does not cover: a 400 with a body among 200s without.
        let disallowed: @Sendable (Int) -> Bool = { $0 % 7 == 0 }
        let channel = BoundedChannel<APNsNotification>(capacity: 512)
        let record = Record()
        let reader = Thread {
            for number in 1...count {
                var notification = try! MockFixture.notification(
                    token: MockFixture.token(number),
                    topic: disallowed(number) ? "com.example.other" : MockFixture.topic)
                notification.inputLine = number
                record.withNumbers { $0[notification.apnsID] = number }
                channel.send(notification)
            }
            channel.finish()
        }
        reader.start()
        await client.send(polling: channel, maximumInFlight: 200) { notification, result, _ in
            let number = record.withNumbers { $0[notification.apnsID] } ?? 0
            record.withOutcome { outcome in
                outcome.seen.insert(notification.apnsID)
                switch result {
                case .delivered(let id, _) where !disallowed(number) && id == notification.apnsID:
                    outcome.delivered += 1
                case .rejected(let id, 400, let reason, _)
                where disallowed(number) && reason.rawValue == "TopicDisallowed" && id == notification.apnsID:
                    outcome.rejected += 1
                default:
                    outcome.wrong.append("notification \(number) (line \(notification.inputLine)): \(result)")
                }
            }
        }
        let reused = transport.loops.map { $0.streamsReused.load(ordering: .relaxed) }.reduce(0, +)
        await client.shutdown()
        let counters = fixture.mock.counters
        await fixture.stop()
        let outcome = record.withOutcome { $0 }
        let rejectedCount = (1...count).filter(disallowed).count
        #expect(outcome.wrong.isEmpty, "\(outcome.wrong.prefix(5))")
        #expect(outcome.seen.count == count)
        #expect(outcome.delivered == count - rejectedCount && outcome.rejected == rejectedCount)
        #expect(counters.accepted == count - rejectedCount && counters.duplicateAcceptances == 0)
        // All but the first window's streams can be reused ones.
        #expect(reused > count / 2)
    }

    /// What the reader and the results share. Locked with `NSLock`, which the thread sanitizer sees
    /// (the thread sanitizer does not see the futex under Mutex, and took its accesses for a race).
    private final class Record: @unchecked Sendable {
        // `@unchecked Sendable`: both values are reached only through `withLock`.
        private let lock = NSLock()
        private var numbersValue: [UUID: Int] = [:]
        private var outcomeValue = Outcome()

        struct Outcome {
            var wrong: [String] = []
            var delivered = 0
            var rejected = 0
            var seen = Set<UUID>()
        }

        func withNumbers<Result>(_ body: (inout [UUID: Int]) -> Result) -> Result {
            lock.withLock { body(&numbersValue) }
        }

        func withOutcome<Result>(_ body: (inout Outcome) -> Result) -> Result {
            lock.withLock { body(&outcomeValue) }
        }
    }

    /// The input line a notification carries is not part of its identity.
    @Test func theInputLineIsNotPartOfANotificationsIdentity() throws {
        let first = try MockFixture.notification()
        var second = first
        second.inputLine = 42
        #expect(first == second && first.hashValue == second.hashValue)
        second.topic = "com.example.other"
        #expect(first != second)
    }
}
