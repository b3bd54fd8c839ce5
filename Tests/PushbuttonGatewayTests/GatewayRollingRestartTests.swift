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

/// A rolling restart, the way Kubernetes and systemd do one: two `pushbutton serve` processes on one PostgreSQL
/// send a campaign; three times a replacement starts and one of the running processes gets SIGTERM mid-way (the
/// campaign's next page is posted only after each restart, so every restart comes before its end).
/// Stricter than the SIGKILL test: every recipient ends with exactly one outcome and the mock APNs sees no
/// apns-id twice (a stopping process finishes and records what it sends, and gives back what it has not
/// started). `make test` runs 3,000 recipients; `make gateway-rolling` the issue's 50,000.
@Suite(.serialized, .timeLimit(.minutes(10)))
struct GatewayRollingRestartTests {
    static let recipients =
        Int(ProcessInfo.processInfo.environment["PUSHBUTTON_GATEWAY_ROLLING_COUNT"] ?? "") ?? 3000
    static let restarts = 3

    @Test func twoProcessesOnPostgreSQLRestartWithSIGTERMAndSendNothingTwice() async throws {
        let cluster = try await Blocking.run { try PostgresTestCluster() }
        let url = try await Blocking.run { try cluster.freshDatabase() }
        do {
            try await run(store: url)
        } catch {
            _ = try? await Blocking.run { cluster.stop() }
            throw error
        }
        _ = try await Blocking.run { cluster.stop() }
    }

    private func run(store url: String) async throws {
        let directory = NSTemporaryDirectory() + "pushbutton-rolling-" + UUID().uuidString
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
                ], maximumConcurrentStreams: 10,
                // Every answer 50 ms late, 10 streams a connection: about 200 a second a process, so that the
                // restarts fall mid-campaign however fast the machine.
                faults: FaultPlan(delayRate: 1, delay: .milliseconds(50)),
                recordingLimit: Self.recipients * 2 + 1000, trackingLimit: Self.recipients * 2 + 1000))
        defer { Task { await mock.stop() } }
        // Leases of 10 minutes: a recipient sent twice here could only be one a stopping process sent and did
        // not record, or gave back after sending; an expired lease cannot hide either within the test.
        let config = GatewayFixture.configurationText(
            mockPort: mock.port, caFile: nil, webhookPort: nil, store: url, workers: 1
        ).replacingOccurrences(of: #""port": \#(mock.port)}"#, with: #""port": \#(mock.port), "h2c": true}"#)
            .replacingOccurrences(of: #""leaseSeconds": 30"#, with: #""leaseSeconds": 600"#)
            .replacingOccurrences(of: #""batchSize": 200"#, with: #""batchSize": 100"#)
        try config.write(toFile: directory + "/gateway.json", atomically: true, encoding: .utf8)
        chmod(directory + "/AuthKey.p8", 0o600)
        chmod(directory + "/gateway.json", 0o600)
        let store: any GatewayStore = try await Blocking.run { try SQLGatewayStore.postgres(url: url, connections: 2) }
        let configPath = directory + "/gateway.json"
        let servers = ServerSet()
        for _ in 0..<2 {
            servers.append(try await Blocking.run { try ServeProcess(config: configPath, logDirectory: directory) })
        }
        defer { servers.terminateAll() }
        let base = "http://127.0.0.1:\(servers[0].port)"
        let header = #"{"category": "message", "title": "Sale", "body": "For {{name}}"}"#
        // The list goes in a page more than there are restarts, each page posted only after the restart before it:
        // the campaign cannot end before the last restart, however fast the machine sends or however slowly a
        // replacement starts (at load 20 the campaign once ended after the second of three restarts, when the
        // pages were all posted at once and the restarts waited for 20%, 45% and 70%).
        let pageSize = (Self.recipients + Self.restarts) / (Self.restarts + 1)
        // A page in requests of at most 1,000 lines (the fixture's maxRecipients is 5,000).
        let lines = { (range: Range<Int>) in range.map(GatewayCrashTests.line).joined(separator: "\n") }
        let first = min(1000, pageSize)
        let (status, created) = try await post(base + "/v1/apps/chat/campaigns", header + "\n" + lines(0..<first))
        #expect(status == 202, "\(created)")
        let id = try #require(created.objectValue?["id"]?.stringValue)
        let append = { (range: Range<Int>, server: Int) async throws in
            for start in stride(from: range.lowerBound, to: range.upperBound, by: 1000) {
                let url = "http://127.0.0.1:\(server)/v1/campaigns/\(id)/recipients"
                let (pageStatus, body) = try await post(url, lines(start..<min(start + 1000, range.upperBound)))
                #expect(pageStatus == 202, "\(body)")
            }
        }
        try await append(first..<min(pageSize, Self.recipients), servers[0].port)
        var posted = min(pageSize, Self.recipients)
        let progress = { @Sendable () async throws -> NotificationRecord? in
            try await Blocking.run { try store.notification(id: id, limit: 0, after: 0) }
        }

        // When half of the last page posted is sent: a replacement starts, the older process gets SIGTERM and must
        // exit 0 by itself (within its shutdownSeconds, 30 by default); then the next page is posted.
        var restarts = 0
        var statuses: [Int32] = []
        while restarts < Self.restarts {
            let record = try #require(try await progress())
            let finished = record.counts.filter { $0.key.isFinal }.values.reduce(0, +)
            guard finished >= posted - pageSize / 2 else {
                await Task.yield()
                continue
            }
            let victim = restarts % 2
            let old = servers[victim]
            servers[victim] = try await Blocking.run { try ServeProcess(config: configPath, logDirectory: directory) }
            let exit = try await Blocking.run { () -> ProcessExit in
                kill(old.process.processIdentifier, SIGTERM)
                return ProcessExit.wait(for: old.process)
            }
            statuses.append(exit.signaled ? -1 : exit.status)
            #expect(old.standardError.contains("pushbutton serve: stopped"), "\(old.standardError)")
            restarts += 1
            try await append(posted..<min(posted + pageSize, Self.recipients), servers[restarts % 2].port)
            posted = min(posted + pageSize, Self.recipients)
        }
        #expect(statuses == Array(repeating: 0, count: restarts), "exit statuses after SIGTERM: \(statuses)")

        // The rest is sent by the two processes running now (no expired lease is needed: the deadline is
        // far shorter than leaseSeconds).
        let deadline = ContinuousClock.now + .seconds(Int64(120 + Self.recipients / 250))
        var record = try #require(try await progress())
        while (record.counts[.queued] ?? 0) + (record.counts[.leased] ?? 0) > 0 && ContinuousClock.now < deadline {
            await Task.yield()  // each progress read is a round trip to PostgreSQL: no timer is needed
            record = try #require(try await progress())
        }
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
        let apnsIDs = Set(deliveries.map(\.apnsID))
        #expect(apnsIDs.count == Self.recipients)
        let accepted = mock.notifications.map { $0.apnsID.lowercased() }
        #expect(Set(accepted) == apnsIDs)
        let duplicates = accepted.count - Set(accepted).count
        #expect(duplicates == 0 && mock.counters.duplicateAcceptances == 0, "apns-ids seen twice: \(duplicates)")
        print(
            "gateway rolling restart test (PostgreSQL, 2 processes): \(Self.recipients) recipients, "
                + "\(restarts) SIGTERM restarts (exit \(statuses)), \(record.counts[.delivered] ?? 0) delivered, "
                + "\(deliveries.count) outcomes, \(duplicates) apns-ids seen twice by the mock"
        )
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
