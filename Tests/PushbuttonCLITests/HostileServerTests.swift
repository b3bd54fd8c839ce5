import Foundation
import Pushbutton
import PushbuttonOutbox
import PushbuttonReceiver
import PushbuttonSupport
import PushbuttonTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The hardening suite's servers: a hostile APNs (`scripts/hostile-apns.py`, python3-h2) and a hostile
/// backend (`scripts/hostile-backend.py`), each bound to 127.0.0.1 and stopping itself.
@Suite(.timeLimit(.minutes(3))) struct HostileServerTests {
    @Test func everyHostileAPNsAnswerGivesOneDefiniteEscapedResult() async throws {
        let server = try LocalServer(script: "hostile-apns.py", arguments: ["--max-seconds", "300"])
        defer { server.stop() }
        let kinds = (1000...1011).map(String.init) + ["2000"]
        let input = kinds.map { #"{"token":"\#($0)\#(String(repeating: "0", count: 60))"}"# }.joined(separator: "\n")
        let result = try await OffPool.cli(
            HostileInputTests.sendBase + [
                "--host", "127.0.0.1", "--port", "\(server.port)", "--h2c", "--payload",
                "Examples/payloads/message.json",
                "--timeout", "2",
            ], stdin: input + "\n")
        HostileInputTests.expectNoTrap(result, "send to the hostile APNs")
        #expect(result.status == 1)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == kinds.count, "\(lines)")
        for kind in kinds { #expect(lines.filter { $0.contains("\"token\":\"\(kind)") }.count == 1, "\(kind)") }
        for line in lines {
            let object = try JSONParser.parse(line)
            #expect(["delivered", "rejected", "failed"].contains(object["status"]?.stringValue ?? ""), "\(line)")
            if let since = object["unregistered_at"]?.integerValue { #expect(since >= 0) }
        }
        #expect(!(result.stdout + result.stderr).contains("\u{1B}"), "a server's escape sequence reached the terminal")
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        #expect(result.stderr.hasPrefix("sent 13: delivered 2, rejected 8"), "\(result.stderr)")
        // The one readable timestamp (-1 and the huge ones are not dates APNs could mean) was ignored, not trapped on.
        print("hostile APNs: \(kinds.count) answers, \(kinds.count) definite results, 0 traps")
    }

    @Test func theOutboxNeverTakesARedirectAsADelivery() async throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let log = directory.appendingPathComponent("backend.ndjson")
        let backend = try LocalServer(
            script: "hostile-backend.py", arguments: ["--log", log.path, "--max-seconds", "300"])
        defer { backend.stop() }
        let path = directory.appendingPathComponent("taps.sqlite").path
        let outbox = try Outbox(path: path)
        let codes = [302, 303, 307, 308]
        for code in codes {
            try await outbox.enqueue(
                BackendRequest(
                    url: "https://api.example.com/redirect-\(code)/like", body: ["id": 42], idempotencyKey: "k\(code)",
                    notificationIdentifier: "n", actionIdentifier: "like"))
        }
        try await outbox.enqueue(
            BackendRequest(
                url: "https://api.example.com/plain", body: ["id": 1], idempotencyKey: "plain",
                notificationIdentifier: "n", actionIdentifier: "like"))
        let drain = try await OffPool.cli([
            "outbox", "drain", path, "--endpoint", "http://127.0.0.1:\(backend.port)", "--max-attempts", "2",
            "--base-backoff", "0", "--max-backoff", "0", "--until-empty", "--time-limit", "30",
        ])
        HostileInputTests.expectNoTrap(drain, "drain")
        #expect(drain.stdout.contains("delivered 1,"), "\(drain.stdout) \(drain.stderr)")
        #expect(drain.stdout.contains("dead-lettered 4,"), "\(drain.stdout)")
        let dead = try await outbox.entries(.dead)
        #expect(dead.count == codes.count)
        for entry in dead { #expect(entry.lastError?.contains("redirect") == true, "\(entry.lastError ?? "")") }
        // The backend never saw a GET, nor a request at the redirect's target.
        let methods = try LocalServer.values("method", inLog: log)
        let paths = try LocalServer.values("path", inLog: log)
        #expect(methods.allSatisfy { $0 == "POST" }, "\(methods)")
        #expect(!paths.contains("/landing"), "\(paths)")
        #expect(paths.filter { $0.hasPrefix("/redirect-") }.count == 2 * codes.count)
    }

    @Test func processesOpeningOneNewOutboxAtOnceKeepEveryTap() async throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let database = directory.appendingPathComponent("new.sqlite").path
        let count = 12
        let script = """
            for i in $(seq \(count)); do
              "$1" simulate Examples/payloads/message.json --manifest Examples/manifest.json --tap like --outbox "$2" \\
                >/dev/null 2>>"$3" &
            done
            wait
            """
        let errors = directory.appendingPathComponent("errors").path
        let result = try await OffPool.program(
            URL(fileURLWithPath: "/bin/bash"),
            ["-c", script, "bash", CLI.productsDirectory.appendingPathComponent("pushbutton").path, database, errors])
        #expect(result.status == 0)
        let stderr = (try? String(contentsOfFile: errors, encoding: .utf8)) ?? ""
        #expect(stderr.isEmpty, "\(stderr)")
        let status = try JSONParser.parse(try await OffPool.cli(["outbox", "status", database, "--json"]).stdout)
        #expect(status["pending"]?.integerValue == Int64(count), "\(status)")
        print("outbox migration race: \(count) processes on one new database, \(status["pending"] ?? .null) taps kept")
    }

    @Test func anSQLiteFileThatIsNotAnOutboxIsRefusedUntouched() async throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let database = directory.appendingPathComponent("other.sqlite").path
        let made = try await OffPool.program(
            URL(fileURLWithPath: "/usr/bin/env"), ["sqlite3", database, "CREATE TABLE people (name TEXT);"])
        #expect(made.status == 0)
        let result = try await OffPool.cli(["outbox", "status", database])
        #expect(result.status == 1)
        #expect(result.stderr.contains("not a Pushbutton outbox"), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1)
        let tables = try await OffPool.program(
            URL(fileURLWithPath: "/usr/bin/env"),
            ["sqlite3", database, "SELECT name FROM sqlite_master ORDER BY name;"])
        #expect(tables.stdout == "people\n")
    }

    @Test func anIdempotencyKeyOrMethodThatWouldSmuggleAHeaderIsRefusedAtEnqueue() async throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let outbox = try Outbox(path: directory.appendingPathComponent("taps.sqlite").path)
        for (key, method) in [("n1:like\r\nX-Injected: 1", "POST"), ("n1:like\n", "POST"), ("ok", "POST\r\nX: 1")] {
            await #expect(throws: OutboxError.self) {
                try await outbox.enqueue(
                    BackendRequest(
                        url: "https://api.example.com/like", method: method, idempotencyKey: key,
                        notificationIdentifier: "n1", actionIdentifier: "like"))
            }
        }
        #expect(try await outbox.status().pending == 0)
    }

    /// CPU seconds a process has used (user + system), from /proc.
    static func cpuSeconds(_ pid: Int32) throws -> Double {
        let stat = try String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)
        let fields = stat[stat.index(after: stat.lastIndex(of: ")")!)...].split(separator: " ")
        return (Double(fields[11])! + Double(fields[12])!) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    @Test func theMockOutOfDescriptorsNeitherSpinsNorStopsAnswering() async throws {
        let mock = try LocalServer(
            executable: URL(fileURLWithPath: "/bin/bash"),
            arguments: [
                "-c", "ulimit -n 40; exec \"$1\" mock-apns --h2c --no-token-check --quiet --port 0 --duration 60",
                "bash",
                CLI.productsDirectory.appendingPathComponent("pushbutton").path,
            ],
            port: { line in
                (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["port"] as? Int
            })
        defer { mock.stop() }
        let idle = (0..<80).map { _ in MockConnectionHog.connect(port: mock.port) }
        defer { idle.forEach { close($0) } }
        // Out of descriptors, the mock closes the connection idle the longest to make room: the first hog to read
        // the end of its stream tells that the mock reached its limit (another process: polled, its bound never
        // decides the result — the assertions below are that the mock idles and keeps answering).
        let shed = await Poll.until { MockConnectionHog.anyClosed(idle) }
        #expect(shed, "no idle connection was closed: the mock never ran out of descriptors")
        let before = try Self.cpuSeconds(mock.process.processIdentifier)
        // The measure itself: another process's CPU time over a fixed span of wall time (it must idle, not spin).
        try await Task.sleep(for: .milliseconds(1500))
        let spent = try Self.cpuSeconds(mock.process.processIdentifier) - before
        #expect(spent < 0.5, "the mock used \(spent) s of CPU in 1.5 s while out of descriptors")
        // Out of descriptors, the mock sheds connections (the one idle the longest) and accepts one every 100 ms, so
        // a client may lose its connections: once, in a full `make test`, all five attempts of one send failed within
        // 2 s (alone, under CPU load too, it is served in about 3 s). What matters is that the mock keeps
        // answering: one of three sends must be served; the failure message carries the result line.
        var sent = CLI.Result(status: -1, stdout: "", stderr: "")
        for _ in 0..<3 where sent.status != 0 {
            sent = try await OffPool.cli(
                HostileInputTests.sendBase + [
                    "--host", "127.0.0.1", "--port", "\(mock.port)", "--h2c", "--token", MockToken.make(7), "--body",
                    "hi",
                ])
        }
        #expect(sent.status == 0, "\(sent.stderr) \(sent.stdout)")
        print("mock out of descriptors: 80 idle connections, \(spent) s CPU in 1.5 s, a real client served")
    }
}

/// Plain TCP connections that never send a byte.
enum MockConnectionHog {
    static func connect(port: Int) -> Int32 {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        _ = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        return descriptor
    }

    /// Whether the server has closed one of `sockets`: each is read without waiting (the mock's SETTINGS first)
    /// until it has nothing more for now, or ends.
    static func anyClosed(_ sockets: [Int32]) -> Bool {
        var buffer = [UInt8](repeating: 0, count: 4096)
        return sockets.contains { socket in
            while true {
                let count = recv(socket, &buffer, buffer.count, Int32(MSG_DONTWAIT))
                if count == 0 { return true }
                if count < 0 { return errno == ECONNRESET }  // EAGAIN: open, nothing more yet
            }
        }
    }
}
