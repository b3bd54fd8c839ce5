#if os(Linux)
    import Foundation
    import Pushbutton
    import PushbuttonReceiver
    import PushbuttonSQLite
    import PushbuttonSupport
    import PushbuttonTestSupport
    import Testing

    @testable import PushbuttonOutbox

    /// `scripts/hostile-backend.py` on 127.0.0.1: 200 for most paths, redirects under /redirect-NNN/, every
    /// request logged; it stops itself after 300 seconds, and `stop()` ends it sooner.
    struct HostileBackend {
        let server: LocalServerProcess
        let directory: URL
        var port: Int { server.port }
        var log: URL { directory.appendingPathComponent("requests.ndjson") }

        init(directory: URL) async throws {
            self.directory = directory
            let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().appendingPathComponent("scripts/hostile-backend.py")
            let arguments = [
                "python3", script.path, "--log", directory.appendingPathComponent("requests.ndjson").path,
                "--max-seconds", "300",
            ]
            // Its first line (the port) is awaited off the pool: a blocking read would hold one of its two threads.
            server = try await OffPool.run {
                try LocalServerProcess(URL(fileURLWithPath: "/usr/bin/env"), arguments)
            }
        }

        func stop() { server.process.terminate() }

        func requests() throws -> [[String: JSONValue]] {
            try String(contentsOf: log, encoding: .utf8).split(separator: "\n").compactMap {
                try JSONParser.parse(Array($0.utf8)).objectValue
            }
        }
    }

    @Suite(.timeLimit(.minutes(5))) struct CurlSenderTests {
        @Test func theOutboxDeliversEveryEntryThroughTheCurlSenderWithItsKeyAndBody() async throws {
            let fixture = try Fixture()
            defer { fixture.remove() }
            let backend = try await HostileBackend(directory: fixture.directory)
            defer { backend.stop() }
            let outbox = try fixture.outbox(OutboxOptions(maximumConcurrentRequests: 4))
            _ = await outbox.enqueue(contentsOf: (0..<30).map { Fixture.request("k\($0)") })
            let report = try await outbox.drain(
                sender: CurlSender(connections: 4), endpoint: "http://127.0.0.1:\(backend.port)")
            #expect(report.delivered == 30)
            let requests = try backend.requests()
            #expect(Set(requests.compactMap { $0["key"]?.stringValue }) == Set((0..<30).map { "k\($0)" }))
            #expect(requests.allSatisfy { $0["method"] == "POST" && $0["path"] == "/like" && $0["length"] == 9 })
        }

        @Test func aRedirectIsNeverFollowedItsStatusIsTheResult() async throws {
            let fixture = try Fixture()
            defer { fixture.remove() }
            let backend = try await HostileBackend(directory: fixture.directory)
            defer { backend.stop() }
            let sender = CurlSender(connections: 1)
            for status in [302, 303, 307, 308] {
                let answer = try await sender.send(
                    OutgoingRequest(
                        url: "http://127.0.0.1:\(backend.port)/redirect-\(status)/x", method: "POST",
                        headers: ["Idempotency-Key": "r\(status)"], body: Data("{}".utf8)))
                #expect(answer == status)
            }
            #expect(try backend.requests().allSatisfy { $0["path"]?.stringValue?.hasPrefix("/redirect-") == true })
        }

        @Test func aHeaderWithALineBreakIsRefusedAndAnUnreachableServerIsAnError() async throws {
            let sender = CurlSender(timeout: .seconds(5), connections: 1)
            await #expect(throws: CurlSender.Failure.self) {
                _ = try await sender.send(
                    OutgoingRequest(
                        url: "http://127.0.0.1:9/x", method: "POST", headers: ["Idempotency-Key": "a\r\nX: 1"],
                        body: nil)
                )
            }
            await #expect {
                _ = try await sender.send(
                    OutgoingRequest(url: "http://127.0.0.1:9/x", method: "POST", headers: [:], body: nil))
            } throws: { error in
                "\(error)".contains("POST http://127.0.0.1:9/x")
            }
            await #expect(throws: CurlSender.Failure.self) {
                _ = try await sender.send(
                    OutgoingRequest(url: "file:///etc/passwd", method: "GET", headers: [:], body: nil))
            }
        }
    }
#endif
