import Foundation
import Pushbutton
import PushbuttonAPNs
import PushbuttonAPNsMock
import PushbuttonGateway
import PushbuttonStore
import PushbuttonSupport
import PushbuttonTestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A real `pushbutton serve` on PostgreSQL whose server crashes mid-campaign (`pg_ctl stop -m immediate`) and
/// comes back: the gateway recovers by itself (red-team H2, issue 32). While the database is away nothing is
/// acknowledged and `/readyz` answers 503; once it is back `/readyz` answers 200 and every recipient ends with
/// exactly one outcome, the same process running throughout.
@Suite(.serialized, .timeLimit(.minutes(3)))
struct GatewayDatabaseRestartTests {
    static let recipients = 300
    /// The mock's answer at which the database crashes: the gateway has a batch under way.
    static let crashAt = 100

    @Test func aCampaignFinishesExactlyOnceAcrossAPostgreSQLCrash() async throws {
        let cluster = try await Blocking.run { try PostgresTestCluster() }
        do {
            try await run(cluster)
        } catch {
            _ = try? await Blocking.run { cluster.stop() }
            throw error
        }
        _ = try await Blocking.run { cluster.stop() }
    }

    private func run(_ cluster: PostgresTestCluster) async throws {
        let url = try await Blocking.run { try cluster.freshDatabase() }
        let directory = NSTemporaryDirectory() + "pushbutton-pgrestart-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let key = try P256PrivateKey.generate()
        try key.pemRepresentation.write(toFile: directory + "/AuthKey.p8", atomically: true, encoding: .utf8)
        try GatewayFixture.manifest.write(toFile: directory + "/manifest.json", atomically: true, encoding: .utf8)
        let mock = try await MockAPNs.start(
            MockAPNsConfiguration(
                security: .h2c,
                keys: [
                    try MockProviderKey(keyID: GatewayFixture.keyID, teamID: GatewayFixture.teamID, privateKey: key)
                ],
                recordingLimit: Self.recipients * 3, trackingLimit: Self.recipients * 3))
        defer { Task { await mock.stop() } }
        let answers = AnswerLog(crashAt: Self.crashAt, recipients: Self.recipients)
        mock.onAnswer { answers.note($0) }
        // Whatever happens, the mock's thread is never left held.
        defer { answers.releaseCrashPoint() }
        let config = GatewayFixture.configurationText(
            mockPort: mock.port, caFile: nil, webhookPort: nil, store: url, workers: 1
        ).replacingOccurrences(of: #""port": \#(mock.port)}"#, with: #""port": \#(mock.port), "h2c": true}"#)
            .replacingOccurrences(of: #""leaseSeconds": 30"#, with: #""leaseSeconds": 10"#)
            .replacingOccurrences(of: #""pollMilliseconds": 20"#, with: #""pollMilliseconds": 100"#)
        try config.write(toFile: directory + "/gateway.json", atomically: true, encoding: .utf8)
        chmod(directory + "/AuthKey.p8", 0o600)
        chmod(directory + "/gateway.json", 0o600)
        let server = try await Blocking.run {
            try ServeProcess(config: directory + "/gateway.json", logDirectory: directory)
        }
        defer { server.terminate() }
        let base = "http://127.0.0.1:\(server.port)"

        let header = #"{"category": "message", "title": "Sale", "body": "For {{name}}"}"#
        let lines = (0..<Self.recipients).map(GatewayCrashTests.line).joined(separator: "\n")
        let (status, created) = try await Self.request(base + "/v1/apps/chat/campaigns", body: header + "\n" + lines)
        #expect(status == 202, "\(created)")
        let id = try #require(created.objectValue?["id"]?.stringValue)

        // The mock holds its `crashAt`th answer until the database is down: the crash lands mid-campaign.
        await answers.crashPointReached()
        try await Blocking.run { try cluster.crash() }
        let (downStatus, downText) = try await Self.readyz(base)
        #expect(downStatus == 503, "\(downText)")
        // Nothing is acknowledged while the database is away.
        let single =
            #"{"to": {"tokens": ["\#(String(repeating: "ab", count: 32))"]}, "category": "message", "title": "t"}"#
        let (refused, refusal) = try await Self.request(base + "/v1/apps/chat/notifications", body: single)
        #expect(refused == 503, "\(refusal)")
        answers.releaseCrashPoint()

        try await Blocking.run { try cluster.start() }
        let restarted = ContinuousClock.now
        // Every recipient accepted by the mock at least once (an event of the mock, not a poll).
        await answers.everyRecipientAnswered()
        // The outcomes reach the store a moment after the mock's answers: read until nothing is queued or leased
        // (a bounded count of reads; it waits on the gateway process).
        let store = try await Blocking.run { try SQLGatewayStore.postgres(url: url, connections: 1) }
        var record = try #require(try await Blocking.run { try store.notification(id: id, limit: 0, after: 0) })
        var reads = 1
        while (record.counts[.queued] ?? 0) + (record.counts[.leased] ?? 0) > 0 && reads < 50_000 {
            record = try #require(try await Blocking.run { try store.notification(id: id, limit: 0, after: 0) })
            reads += 1
        }
        let finished = ContinuousClock.now - restarted
        var (readyStatus, readyText) = try await Self.readyz(base)
        var readyTries = 1
        while readyStatus != 200 && readyTries < 10_000 {
            (readyStatus, readyText) = try await Self.readyz(base)
            readyTries += 1
        }
        #expect(readyStatus == 200, "\(readyText)")
        #expect(server.process.isRunning, "the gateway was not restarted: the same process recovered")

        // Exactly one outcome each, all delivered (every token is valid).
        #expect(record.total == Self.recipients)
        #expect(record.counts == [.delivered: Self.recipients], "\(record.counts)")
        let deliveries = try await Blocking.run { try store.notification(id: id, limit: Self.recipients, after: 0) }
        let apnsIDs = Set((deliveries?.deliveries ?? []).map(\.apnsID))
        #expect(apnsIDs.count == Self.recipients)
        let accepted = mock.notifications.map { $0.apnsID.lowercased() }
        #expect(Set(accepted) == apnsIDs)
        // Repeats: a lease commits without waiting for the disk (losing one only sends its batch again), so the
        // crash can undo the lease of the batch under way, which is then leased and sent again (seen: the first
        // 200 accepted twice, in order, when the crash came within ~200 ms of the lease). At most that batch (the
        // fixture's batch size). Outcomes that failed to record while the database was down are retried until
        // stored (OutcomeRecorder): a batch whose lease survived is not sent again.
        let duplicates = accepted.count - Set(accepted).count
        #expect(duplicates <= 200, "\(duplicates) duplicate acceptances")
        print(
            "gateway PostgreSQL crash test: \(Self.recipients) recipients, crash at answer \(Self.crashAt), "
                + "\(record.counts[.delivered] ?? 0) delivered exactly once, \(duplicates) duplicate acceptances, "
                + "campaign finished \(finished) after the restart, readyz 200 after \(readyTries) tries")
    }

    static func readyz(_ base: String) async throws -> (Int, String) {
        let (status, body) = try await request(base + "/readyz", body: nil)
        return (status, "\(body)")
    }

    static func request(_ url: String, body: String?) async throws -> (Int, JSONValue) {
        var request = URLRequest(url: URL(string: url)!)
        if let body {
            request.httpMethod = "POST"
            request.httpBody = Data(body.utf8)
        }
        request.setValue("Bearer \(GatewayFixture.secret)", forHTTPHeaderField: "Authorization")
        request.timeoutInterval = 60
        let (data, response) = try await TestHTTP.session.data(for: request)
        let value = (try? JSONParser.parse(Array(data))) ?? .string(String(decoding: data, as: UTF8.self))
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, value)
    }
}

/// The mock's answers as events: it holds one answer (on the mock's thread) until the test has crashed the
/// database, and says when every recipient has been accepted.
///
/// `@unchecked Sendable`: the counts are only reached under `lock`; the semaphore and continuations are
/// thread-safe.
final class AnswerLog: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    private var accepted: Set<String> = []
    private let crashAt: Int
    private let recipients: Int
    private let hold = DispatchSemaphore(value: 0)
    private let crashPoint: AsyncStream<Void>
    private let crashPointContinuation: AsyncStream<Void>.Continuation
    private let allAnswered: AsyncStream<Void>
    private let allAnsweredContinuation: AsyncStream<Void>.Continuation

    init(crashAt: Int, recipients: Int) {
        self.crashAt = crashAt
        self.recipients = recipients
        (crashPoint, crashPointContinuation) = AsyncStream<Void>.makeStream()
        (allAnswered, allAnsweredContinuation) = AsyncStream<Void>.makeStream()
    }

    func note(_ answer: MockAnswer) {
        let (number, distinct) = lock.withLock { () -> (Int, Int) in
            count += 1
            if answer.status == 200 { accepted.insert(answer.apnsID.lowercased()) }
            return (count, accepted.count)
        }
        if distinct == recipients { allAnsweredContinuation.yield() }
        if number == crashAt {
            crashPointContinuation.yield()
            hold.wait()
        }
    }

    func crashPointReached() async {
        for await _ in crashPoint { return }
    }

    func releaseCrashPoint() { hold.signal() }

    func everyRecipientAnswered() async {
        for await _ in allAnswered { return }
    }
}
