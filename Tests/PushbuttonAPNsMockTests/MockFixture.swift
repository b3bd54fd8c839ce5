import Foundation
import Pushbutton
import PushbuttonAPNs
import PushbuttonAPNsMock
import PushbuttonReceiverTesting
import PushbuttonSupport
import PushbuttonTestSupport

/// A mock APNs with one registered provider key, and a real client (the nghttp2 transport) that signs with that key.
struct MockFixture {
    static let keyID = "KEY1234567"
    static let teamID = "TEAM123456"
    static let topic = "com.example.app"

    let mock: MockAPNs
    let key: P256PrivateKey
    let directory: String

    init(
        faults: FaultPlan = .none, security: MockAPNsConfiguration.Security? = nil, topics: Set<String>? = nil,
        recordingLimit: Int = 100_000, port: Int = 0, now: @escaping @Sendable () -> Date = { Date() }
    ) async throws {
        directory = NSTemporaryDirectory() + "pushbutton-mock-" + UUID().uuidString
        key = try P256PrivateKey.generate()
        let configuration = MockAPNsConfiguration(
            port: port, security: security ?? .selfSigned(directory: directory),
            keys: [try MockProviderKey(keyID: Self.keyID, teamID: Self.teamID, privateKey: key, topics: topics)],
            faults: faults, recordingLimit: recordingLimit, now: now)
        mock = try await MockAPNs.start(configuration)
    }

    /// The timeout the fixture's clients give each request. Their transport clock stands still unless a test moves it
    /// (``stoppedClock``, ``expireSilencedRequests(clock:mock:unfinished:)``), so no answer times out because a loaded
    /// machine (or the thread sanitizer) was slow: a timed-out request is sent again, and had the mock answered it
    /// meanwhile, that would be a second acceptance (a busy CI run saw one in 300 with a 5-second wall-clock timeout).
    static let requestTimeout: Duration = .seconds(5)

    /// A transport clock that never moves: no request times out, however slow a loaded machine (or the thread
    /// sanitizer) makes the answers. For tests whose mock answers every request.
    static var stoppedClock: AnyDurationClock { AnyDurationClock(ManualClock()) }

    /// Times out the requests the mock silenced, and only those: each time every unfinished send waits on a silenced
    /// stream, moves `clock` past the request timeout, then waits until the client has cancelled those streams. A send
    /// whose answer is merely slow is unfinished without a silenced stream, so the clock does not move under it.
    /// Returns when `unfinished` is 0.
    ///
    /// Sound because `unfinished` only falls: if it reads n and then the mock has n open silences (each a distinct
    /// send's, since a send waits for its silenced attempt to time out before it tries again), those are the n.
    static func expireSilencedRequests(clock: ManualClock, mock: MockAPNs, unfinished: () -> Int) async {
        while !Task.isCancelled {
            var waiting = 0
            await yieldUntil {
                waiting = unfinished()
                return waiting == 0 || mock.counters.openSilences == waiting
            }
            guard waiting > 0, !Task.isCancelled else { return }
            let ended = mock.counters.silencesEnded
            clock.advance(by: requestTimeout)
            await yieldUntil { mock.counters.silencesEnded >= ended + waiting }
        }
    }

    func client(
        connections: Int = 1, timeout: Duration = MockFixture.requestTimeout,
        policy: RetryPolicy = RetryPolicy(baseBackoff: .milliseconds(2)),
        teamID: String = MockFixture.teamID, now: @escaping @Sendable () -> Date = { Date() },
        transportClock: AnyDurationClock = MockFixture.stoppedClock
    ) throws -> APNsClient {
        let transport = try NGHTTP2Transport(
            .init(environment: mock.environment, connections: connections), clock: transportClock)
        let tokens = TokenProvider(key: key, keyID: Self.keyID, teamID: teamID, now: now)
        return APNsClient(transport: transport, tokens: tokens, retryPolicy: policy, requestTimeout: timeout)
    }

    func stop() async {
        await mock.stop()
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// A distinct token per number: `ab` then the number in hex, zero-padded to 64 digits.
    static func token(_ number: Int) -> String {
        let hex = String(number, radix: 16)
        return "ab" + String(repeating: "0", count: 62 - hex.count) + hex
    }

    static func notification(
        token: String = MockFixture.token(1), payload: String = #"{"aps":{"alert":"Hello","category":"reply"}}"#,
        topic: String = MockFixture.topic, pushType: PushType = .alert, priority: Int? = 10, id: UUID = UUID()
    ) throws -> APNsNotification {
        APNsNotification(
            deviceToken: try DeviceToken(token), payload: Array(payload.utf8), topic: topic, pushType: pushType,
            priority: priority, apnsID: id)
    }
}
