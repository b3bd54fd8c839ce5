import Foundation
import Pushbutton
import PushbuttonSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Ctrl-C during a bulk `send`: input stops being read, what is under way finishes, and every result that
/// came back is written, with the summary.
@Suite(.serialized, .timeLimit(.minutes(2))) struct SendInterruptTests {
    static func token(_ number: Int) -> String { String(format: "%064x", number) }

    @Test func ctrlCWritesTheResultOfEveryDeliveredNotification() async throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        // Every answer takes a second, so the second batch is under way when Ctrl-C comes.
        let mock = try LocalServer(mockAPNs: [
            "--self-signed", directory.path, "--faults", "delay=1,delay-ms=1000,seed=3", "--duration", "300",
        ])
        defer { mock.stop() }
        let port = mock.port
        let path = directory.path
        // The whole exchange waits for a process and sleeps between batches: off the concurrency threads.
        let status = try await OffPool.run { try Self.sendAndInterrupt(port: port, directory: path) }
        mock.stop()
        let outFile = directory.appendingPathComponent("out")
        let errFile = directory.appendingPathComponent("err")
        let stdout = try String(contentsOf: outFile, encoding: .utf8)
        let stderr = try String(contentsOf: errFile, encoding: .utf8)
        #expect(status == 130, "\(stderr)")
        let results = try stdout.split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        let accepted = mock.remainingOutput().split(separator: "\n").filter { $0.contains(#""status":200"#) }
        // Every notification the mock accepted has its result line, joined to its input by line and id.
        #expect(results.count == accepted.count)
        #expect(results.allSatisfy { $0["status"] as? String == "delivered" })
        let lines = Set(results.compactMap { $0["line"] as? Int })
        #expect(lines.count == results.count && lines.allSatisfy { (1...40).contains($0) })
        #expect(results.allSatisfy { ($0["id"] as? String) == "n\($0["line"] as? Int ?? 0)" })
        // The second batch was under way when Ctrl-C came, and its results were kept.
        #expect(results.count > 20, "\(stderr)")
        #expect(stderr.contains("stopping: no more input is read"))
        #expect(stderr.contains("sent \(results.count): delivered \(results.count), rejected 0, failed 0 in "))
        #expect(stderr.contains("pushbutton: interrupted: the rest of the input was not sent"))
    }

    @Test func aSecondCtrlCEndsTheSendAtOnce() async throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        // Every answer takes 20 s: the graceful stop after the first Ctrl-C would wait that long.
        let mock = try LocalServer(mockAPNs: [
            "--self-signed", directory.path, "--faults", "delay=1,delay-ms=20000,seed=3", "--duration", "300",
        ])
        defer { mock.stop() }
        let port = mock.port
        let path = directory.path
        let (exit, seconds) = try await OffPool.run { () throws -> (CLI.Exit, Double) in
            let send = ChildProcess()
            send.executableURL = CLI.productsDirectory.appendingPathComponent("pushbutton")
            send.arguments = [
                "send", "--key", path + "/AuthKey_MOCKKEY001.p8", "--key-id", "MOCKKEY001", "--team-id",
                "MOCKTEAM01", "--topic", "com.example.chatter", "--host", "127.0.0.1", "--port", String(port),
                "--ca", path + "/ca.pem", "--body", "Hi", "--timeout", "60", "--token", Self.token(1),
                "--token", Self.token(2),
            ]
            send.standardOutput = FileHandle.nullDevice
            send.standardError = FileHandle.nullDevice
            try send.run()
            // Another process: `send` connecting and sending (the mock answers only after 20 s, no signal before).
            Thread.sleep(forTimeInterval: 1.5)
            let start = Date()
            send.interrupt()
            // Another process: its first Ctrl-C handled (it prints nothing to wait for) before the second comes.
            Thread.sleep(forTimeInterval: 0.5)
            send.interrupt()
            let exit = CLI.waitForExit(send)
            return (exit, Date().timeIntervalSince(start))
        }
        // The second Ctrl-C has the default action: the process ends by the signal, long before the answers.
        #expect(exit == CLI.Exit(status: SIGINT, signaled: true))
        #expect(seconds < 10, "the second Ctrl-C took \(seconds) s")
    }

    /// Sends two batches of NDJSON (the second while the first's answers are coming), Ctrl-C while the
    /// second is under way, then a third batch that must never be sent; the exit status.
    static func sendAndInterrupt(port: Int, directory: String) throws -> Int32 {
        let send = ChildProcess()
        send.executableURL = CLI.productsDirectory.appendingPathComponent("pushbutton")
        send.arguments = [
            "send", "--key", directory + "/AuthKey_MOCKKEY001.p8", "--key-id", "MOCKKEY001", "--team-id",
            "MOCKTEAM01", "--topic", "com.example.chatter", "--host", "127.0.0.1", "--port", String(port), "--ca",
            directory + "/ca.pem", "--body", "Hi",
        ]
        let input = Pipe()
        let outFile = URL(fileURLWithPath: directory + "/out")
        let errFile = URL(fileURLWithPath: directory + "/err")
        _ = FileManager.default.createFile(atPath: outFile.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errFile.path, contents: nil)
        send.standardInput = input
        send.standardOutput = try FileHandle(forWritingTo: outFile)
        send.standardError = try FileHandle(forWritingTo: errFile)
        try send.run()
        // The throwing write: the deprecated `write(_:)` traps on EPIPE, and the third batch may find the
        // interrupted process gone (a one-process run crashed there).
        func write(_ numbers: ClosedRange<Int>) throws {
            let lines = numbers.map { #"{"token":"\#(Self.token($0))","id":"n\#($0)"}"# + "\n" }.joined()
            try input.fileHandleForWriting.write(contentsOf: Data(lines.utf8))
        }
        try write(1...20)
        // Another process: the first batch answered (after 1 s) as the second is written; the mock's lines are
        // read only once it stops.
        Thread.sleep(forTimeInterval: 1.5)
        try write(21...40)
        // Another process: the second batch on its way to the mock, which says nothing before it answers.
        Thread.sleep(forTimeInterval: 0.4)
        send.interrupt()
        // Another process: Ctrl-C taken before the third batch is written (its stderr is a file, read at the end).
        Thread.sleep(forTimeInterval: 0.1)
        try? write(41...50)  // after Ctrl-C: never sent (the process may have ended and closed its input)
        let exit = CLI.waitForExit(send)
        try? input.fileHandleForWriting.close()
        return exit.status
    }
}
