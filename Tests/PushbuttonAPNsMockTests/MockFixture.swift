import Foundation
import Pushbutton
import PushbuttonAPNs
import PushbuttonAPNsMock
import PushbuttonReceiverTesting
import PushbuttonSupport

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
        recordingLimit: Int = 100_000, now: @escaping @Sendable () -> Date = { Date() }
    ) async throws {
        directory = NSTemporaryDirectory() + "pushbutton-mock-" + UUID().uuidString
        key = try P256PrivateKey.generate()
        let configuration = MockAPNsConfiguration(
            security: security ?? .selfSigned(directory: directory),
            keys: [try MockProviderKey(keyID: Self.keyID, teamID: Self.teamID, privateKey: key, topics: topics)],
            faults: faults, recordingLimit: recordingLimit, now: now)
        mock = try await MockAPNs.start(configuration)
    }

    /// How much slower than a plain build this run is: `make test-tsan` sets `PUSHBUTTON_TEST_TIME_SCALE` (the
    /// thread sanitizer slows the sender and the mock several times over), so the fault tests' request timeouts
    /// stay longer than an answer's real time there too. Their assertions do not change.
    static var timeScale: Int {
        Int(ProcessInfo.processInfo.environment["PUSHBUTTON_TEST_TIME_SCALE"] ?? "") ?? 1
    }

    /// A request that times out is sent again; if the mock had answered it meanwhile, that is a second acceptance.
    /// So the default timeout stays well above what an answer really takes: with N in flight, N over the rate
    /// (Little's law), and debug builds beside the rest of `make test` on 2 cores ran at about 500/s (SoakTests'
    /// 500 in flight: 1 s timeouts gave 2-128 duplicate acceptances in 6 full runs of 7; everyFaultAtOnce's 300
    /// at once: one at 2 s). Scaled by ``timeScale``; tests that want a timeout to fire pass a short one.
    static var requestTimeout: Duration { .seconds(5) * timeScale }

    /// A transport clock that never moves: no request times out, however slow a loaded machine (or the thread
    /// sanitizer) makes the answers. For tests whose mock answers every request.
    static var stoppedClock: AnyDurationClock { AnyDurationClock(ManualClock()) }

    func client(
        connections: Int = 1, timeout: Duration = MockFixture.requestTimeout,
        policy: RetryPolicy = RetryPolicy(baseBackoff: .milliseconds(2)),
        teamID: String = MockFixture.teamID, now: @escaping @Sendable () -> Date = { Date() },
        transportClock: AnyDurationClock = .continuous
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
