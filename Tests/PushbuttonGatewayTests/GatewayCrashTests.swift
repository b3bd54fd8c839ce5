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

/// The queue's promise the hard way: `pushbutton serve` processes sharing one store are killed with SIGKILL
/// mid-campaign and restarted. Every recipient must end with exactly one final outcome, and the mock APNs'
/// duplicate acceptances of an apns-id (a send whose outcome died with its process) must not exceed what was
/// leased at the kills. `make test` runs a few thousand recipients; `make gateway-crash` the issue's 100,000.
@Suite(.serialized, .timeLimit(.minutes(10)))
struct GatewayCrashTests {
    static let recipients = Int(ProcessInfo.processInfo.environment["PUSHBUTTON_GATEWAY_CRASH_COUNT"] ?? "") ?? 4000
    static let kills = 3

    @Test func threeProcessesOnPostgreSQLSurviveSIGKILL() async throws {
        let cluster = try await Blocking.run { try PostgresTestCluster() }
        let url = try await Blocking.run { try cluster.freshDatabase() }
        do {
            try await run(store: url, processes: 3)
        } catch {
            _ = try? await Blocking.run { cluster.stop() }
            throw error
        }
        _ = try await Blocking.run { cluster.stop() }
    }

    @Test func oneProcessOnSQLiteSurvivesSIGKILL() async throws {
        try await run(store: nil, processes: 1)
    }

    private func run(store url: String?, processes count: Int) async throws {
        let directory = NSTemporaryDirectory() + "pushbutton-crash-" + UUID().uuidString
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
                ], recordingLimit: Self.recipients * 2 + 1000, trackingLimit: Self.recipients * 2 + 1000))
        defer { Task { await mock.stop() } }
        let storeText = url ?? "sqlite:\(directory)/gateway.db"
        let config = GatewayFixture.configurationText(
            mockPort: mock.port, caFile: nil, webhookPort: nil, store: storeText, workers: 1
        ).replacingOccurrences(of: #""port": \#(mock.port)}"#, with: #""port": \#(mock.port), "h2c": true}"#)
            .replacingOccurrences(of: #""leaseSeconds": 30"#, with: #""leaseSeconds": 2"#)
            .replacingOccurrences(of: #""pollMilliseconds": 20"#, with: #""pollMilliseconds": 100"#)
        try config.write(toFile: directory + "/gateway.json", atomically: true, encoding: .utf8)
        chmod(directory + "/AuthKey.p8", 0o600)
        chmod(directory + "/gateway.json", 0o600)
        let store: any GatewayStore = try await Blocking.run {
            try url.map { try SQLGatewayStore.postgres(url: $0, connections: 2) }
                ?? SQLGatewayStore.sqlite(path: "\(directory)/gateway.db")
        }
        let configPath = directory + "/gateway.json"
        let servers = ServerSet()
        for _ in 0..<count {
            let server = try await Blocking.run { try ServeProcess(config: configPath, logDirectory: directory) }
            servers.append(server)
        }
        defer { servers.terminateAll() }
        let progress = { @Sendable () async throws -> NotificationRecord? in
            try await Blocking.run { try store.notification(id: servers.campaign, limit: 0, after: 0) }
        }
        // The list goes in a page more than there are kills, each page posted (through the first process, which
        // is spared when there are several) only after the kill before it: the campaign cannot end before the last
        // kill however fast the machine sends or however slowly a replacement starts (at load 15 a run once ended
        // its campaign before any kill, when the whole list went in at once and the kills waited for 15/40/65%).
        let pageSize = (Self.recipients + Self.kills) / (Self.kills + 1)
        let lines = { (range: Range<Int>) in range.map(Self.line).joined(separator: "\n") }
        let header = #"{"category": "message", "title": "Sale", "body": "For {{name}}"}"#
        let first = min(1000, pageSize)
        let (status, created) = try await post(
            "http://127.0.0.1:\(servers[0].port)/v1/apps/chat/campaigns", header + "\n" + lines(0..<first))
        #expect(status == 202, "\(created)")
        let id = try #require(created.objectValue?["id"]?.stringValue)
        servers.campaign = id
        // A page in requests of at most 1,000 lines (the fixture's maxRecipients is 5,000).
        let append = { (range: Range<Int>) async throws in
            for start in stride(from: range.lowerBound, to: range.upperBound, by: 1000) {
                let url = "http://127.0.0.1:\(servers[0].port)/v1/campaigns/\(id)/recipients"
                let (pageStatus, body) = try await post(url, lines(start..<min(start + 1000, range.upperBound)))
                #expect(pageStatus == 202, "\(body)")
            }
        }
        try await append(first..<min(pageSize, Self.recipients))
        var posted = min(pageSize, Self.recipients)

        // Kill a process when half of the last page posted is finished, then post the next page.
        var leasedAtKills = 0
        var kills = 0
        var random = SplitMix64(seed: 15)
        while kills < Self.kills {
            // Other processes (pushbutton serve, killed and restarted): their progress is read from the store, which
            // offers no signal; the kill comes at the first poll that sees half the page finished.
            var finished = 0
            let halfDone = try await Poll.until(every: .milliseconds(5)) {
                let record = try #require(try await progress())
                finished = record.counts.filter { $0.key.isFinal }.values.reduce(0, +)
                return finished >= posted - pageSize / 2
            }
            #expect(halfDone, "\(finished) of \(posted) finished")
            guard halfDone else { break }
            let victim = count == 1 ? 0 : 1 + Int(random.next() % UInt64(count - 1))
            let dead = servers[victim]
            try await Blocking.run { dead.kill9() }
            // What the dead process held is still leased (for 2 s): read right after the kill.
            let held = try #require(try await progress())
            leasedAtKills += held.counts[.leased] ?? 0
            kills += 1
            // On a new port (port 0): the dead one's could meanwhile be an outgoing connection's local port.
            servers[victim] = try await Blocking.run { try ServeProcess(config: configPath, logDirectory: directory) }
            try await append(posted..<min(posted + pageSize, Self.recipients))
            posted = min(posted + pageSize, Self.recipients)
        }

        var record = try #require(try await progress())
        // Other processes finish the campaign: polled through the store, which offers no signal.
        try await Poll.until(every: .milliseconds(100), within: .seconds(Int64(150 + Self.recipients / 500))) {
            record = try #require(try await progress())
            return (record.counts[.queued] ?? 0) + (record.counts[.leased] ?? 0) == 0
        }
        // Every recipient ended with exactly one final outcome: delivered (all tokens are valid).
        #expect(record.total == Self.recipients)
        #expect(record.counts == [.delivered: Self.recipients], "\(record.counts)")
        let deliveries = try await Blocking.run { () throws -> [DeliveryRecord] in
            var all: [DeliveryRecord] = []
            var after: Int64 = 0
            while let page = try store.notification(id: id, limit: 5000, after: after), let last = page.deliveries.last
            {
                all += page.deliveries
                after = last.id
            }
            return all
        }
        #expect(deliveries.allSatisfy { $0.state == .delivered })
        let apnsIDs = Set(deliveries.map(\.apnsID))
        #expect(apnsIDs.count == Self.recipients)
        // The mock saw each apns-id accepted at least once; repeats are bounded by what was leased at the kills.
        let accepted = mock.notifications.map { $0.apnsID.lowercased() }
        #expect(Set(accepted) == apnsIDs)
        let duplicates = accepted.count - Set(accepted).count
        #expect(duplicates == mock.counters.duplicateAcceptances)
        #expect(duplicates <= leasedAtKills, "duplicates \(duplicates), leased at the kills \(leasedAtKills)")
        print(
            "gateway crash test (\(url == nil ? "SQLite" : "PostgreSQL"), \(count) process(es)): "
                + "\(Self.recipients) recipients, \(kills) SIGKILLs, \(leasedAtKills) leased at the kills, "
                + "\(duplicates) duplicate acceptances, \(record.counts[.delivered] ?? 0) delivered exactly once in the store"
        )
    }

    static func line(_ index: Int) -> String {
        #"{"token": "\#(String(format: "%064x", 0x1_0000 + index))", "data": {"name": "n\#(index)"}}"#
    }

    private func post(_ url: String, _ body: String) async throws -> (Int, JSONValue) {
        var request = URLRequest(url: URL(string: url)!)
        request.httpMethod = "POST"
        request.setValue("Bearer \(GatewayFixture.secret)", forHTTPHeaderField: "Authorization")
        request.httpBody = Data(body.utf8)
        request.timeoutInterval = 60
        let (data, response) = try await TestHTTP.session.data(for: request)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, (try? JSONParser.parse(Array(data))) ?? .null)
    }
}

/// The serve processes of a crash test, replaced as they are killed; terminated at the end.
///
/// `@unchecked Sendable`: the test's one task mutates it, between awaits; the Dispatch closures that read it
/// (`progress`) run while that task waits for them.
final class ServerSet: @unchecked Sendable {
    private var servers: [ServeProcess] = []
    var campaign = ""

    func append(_ server: ServeProcess) { servers.append(server) }

    subscript(index: Int) -> ServeProcess {
        get { servers[index] }
        set { servers[index] = newValue }
    }

    func terminateAll() {
        for server in servers { server.terminate() }
    }
}
