import Foundation
import Pushbutton
import PushbuttonAPNs
import PushbuttonAPNsMock
import PushbuttonSupport
import PushbuttonTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Ctrl-C during a bulk `send`: input stops being read, what is under way finishes, and every result that
/// came back is written, with the summary.
@Suite(.serialized, .timeLimit(.minutes(2))) struct SendInterruptTests {
    static func token(_ number: Int) -> String { String(format: "%064x", number) }

    /// A mock APNs in this process whose every answer waits `delay`, so the test sees requests arrive and answers
    /// go out; and the arguments that point `send` at it.
    final class SlowMock: Sendable {
        let directory: TemporaryDirectory
        let mock: MockAPNs
        let keyFile: String
        /// Answers handed out so far, and the signal of each.
        let answered = Locked(0)
        let answers = ChangeSignal()

        init(delay: Duration) async throws {
            directory = try TemporaryDirectory(prefix: "pushbutton-send-interrupt")
            let key = try P256PrivateKey.generate()
            keyFile = directory.path + "/AuthKey_MOCKKEY001.p8"
            try key.pemRepresentation.write(toFile: keyFile, atomically: true, encoding: .utf8)
            chmod(keyFile, 0o600)
            var configuration = MockAPNsConfiguration(
                security: .selfSigned(directory: directory.path + "/mock"),
                keys: [try MockProviderKey(keyID: "MOCKKEY001", teamID: "MOCKTEAM01", privateKey: key)])
            configuration.faults = FaultPlan(seed: 3, delayRate: 1, delay: delay)
            mock = try await MockAPNs.start(configuration)
            mock.onAnswer { [answered, answers] _ in
                answered.withLock { $0 += 1 }
                answers.notify()
            }
        }

        var sendArguments: [String] {
            [
                "send", "--key", keyFile, "--key-id", "MOCKKEY001", "--team-id", "MOCKTEAM01", "--topic",
                "com.example.chatter", "--host", "127.0.0.1", "--port", String(mock.port), "--ca",
                mock.caFile ?? "", "--body", "Hi",
            ]
        }

        /// Waits for `count` requests to have reached the mock: it counts them as they arrive but calls back only
        /// when it answers (a second or more later), and the sender is another process: polled.
        func requests(_ count: Int) async -> Bool {
            await Poll.until(every: .milliseconds(10)) { mock.counters.requests >= count }
        }

        func stop() async {
            await mock.stop()
            directory.remove()
        }
    }

    /// Waits for `text` in the file another process writes its stderr to (it offers no other signal): polled.
    static func appears(_ text: String, in file: URL) async -> Bool {
        await Poll.until(every: .milliseconds(10)) {
            ((try? String(contentsOf: file, encoding: .utf8)) ?? "").contains(text)
        }
    }

    static let stopping = "stopping: no more input is read"

    @Test func ctrlCWritesTheResultOfEveryDeliveredNotification() async throws {
        // Every answer takes a second, so the second batch is under way when Ctrl-C comes.
        let mock = try await SlowMock(delay: .seconds(1))
        let directory = mock.directory.url
        let status = try await Self.sendAndInterrupt(mock, directory: directory)
        let accepted = mock.mock.counters.accepted
        let stdout = try String(contentsOf: directory.appendingPathComponent("out"), encoding: .utf8)
        let stderr = try String(contentsOf: directory.appendingPathComponent("err"), encoding: .utf8)
        await mock.stop()
        #expect(status == 130, "\(stderr)")
        let results = try stdout.split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        // Every notification the mock accepted has its result line, joined to its input by line and id.
        #expect(results.count == accepted)
        #expect(results.allSatisfy { $0["status"] as? String == "delivered" })
        let lines = Set(results.compactMap { $0["line"] as? Int })
        #expect(lines.count == results.count && lines.allSatisfy { (1...40).contains($0) })
        #expect(results.allSatisfy { ($0["id"] as? String) == "n\($0["line"] as? Int ?? 0)" })
        // The second batch was under way when Ctrl-C came, and its results were kept.
        #expect(results.count > 20, "\(stderr)")
        #expect(stderr.contains(Self.stopping))
        #expect(stderr.contains("sent \(results.count): delivered \(results.count), rejected 0, failed 0 in "))
        #expect(stderr.contains("pushbutton: interrupted: the rest of the input was not sent"))
    }

    @Test func aSecondCtrlCEndsTheSendAtOnce() async throws {
        // Every answer takes 20 s: the graceful stop after the first Ctrl-C would wait that long.
        let mock = try await SlowMock(delay: .seconds(20))
        let errFile = mock.directory.url.appendingPathComponent("err")
        _ = FileManager.default.createFile(atPath: errFile.path, contents: nil)
        let send = ChildProcess()
        send.executableURL = CLI.productsDirectory.appendingPathComponent("pushbutton")
        send.arguments =
            mock.sendArguments + ["--timeout", "60", "--token", Self.token(1), "--token", Self.token(2)]
        send.standardOutput = FileHandle.nullDevice
        send.standardError = try FileHandle(forWritingTo: errFile)
        try send.run()
        // Both notifications under way (their answers 20 s off), then Ctrl-C; the second comes once the first
        // was taken (its line on stderr).
        #expect(await mock.requests(2))
        let start = ContinuousClock.now
        send.interrupt()
        #expect(await Self.appears(Self.stopping, in: errFile))
        send.interrupt()
        let exit = try await CLI.exit(of: send)
        let took = ContinuousClock.now - start
        await mock.stop()
        // The second Ctrl-C has the default action: the process ends by the signal, long before the answers.
        #expect(exit == CLI.Exit(status: SIGINT, signaled: true))
        #expect(took < .seconds(10), "the second Ctrl-C took \(took)")
    }

    /// Sends two batches of NDJSON (the second once the first is answered), Ctrl-C once the second has reached
    /// the mock (its answers a second off), then a third batch that must never be sent; the exit status.
    static func sendAndInterrupt(_ mock: SlowMock, directory: URL) async throws -> Int32 {
        let send = ChildProcess()
        send.executableURL = CLI.productsDirectory.appendingPathComponent("pushbutton")
        send.arguments = mock.sendArguments
        let input = Pipe()
        let outFile = directory.appendingPathComponent("out")
        let errFile = directory.appendingPathComponent("err")
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
        await mock.answers.wait { mock.answered.withLock { $0 } >= 20 }
        try write(21...40)
        #expect(await mock.requests(40))
        send.interrupt()
        // Ctrl-C taken before the third batch is written.
        #expect(await Self.appears(Self.stopping, in: errFile))
        try? write(41...50)  // after Ctrl-C: never sent (the process may have ended and closed its input)
        let exit = try await CLI.exit(of: send)
        try? input.fileHandleForWriting.close()
        return exit.status
    }
}
