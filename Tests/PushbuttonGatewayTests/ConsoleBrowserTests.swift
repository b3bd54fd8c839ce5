import Foundation
import Pushbutton
import PushbuttonSupport
import PushbuttonTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The console in a real browser: Debian's chromium driven by chromium-driver and python3-selenium
/// (scripts/deps.sh installs them) through scripts/console_browser_test.py, against a gateway and a mock APNs
/// on 127.0.0.1. The script signs in, composes for a category with three buttons, sees the preview follow the
/// title and an invalid URL's diagnostic beside its button, sends to an uploaded list as a campaign and finds
/// the campaign's chart; its screenshots are in .build/console-screenshots. A second run composes a campaign
/// scheduled at a wall-clock time on each device to an audience built in the audience builder (the live count
/// following a condition added), with a French tab that switches the preview, and finds it listed as scheduled;
/// then adds a variant (issue 36) and finds its own title in its preview tab.
@Suite(.serialized, .timeLimit(.minutes(4)))
struct ConsoleBrowserTests {
    typealias F = ConsoleFixture

    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    @Test func composeSendAndChartInChromium() async throws {
        for tool in ["/usr/bin/chromium", "/usr/bin/chromedriver", "/usr/lib/python3/dist-packages/selenium"] {
            #expect(FileManager.default.fileExists(atPath: tool), "\(tool) is missing: run scripts/deps.sh")
        }
        let fixture = try await ConsoleFixture()
        defer { Task { await fixture.stop() } }
        let list = fixture.directory + "/recipients.txt"
        try "\(F.token(1))\n\(F.token(2))\n\(F.token(3))\n\(F.token(4))\n".write(
            toFile: list, atomically: true, encoding: .utf8)
        let ready = fixture.directory + "/taps-ready"
        let screenshots = Self.packageRoot.appendingPathComponent(".build/console-screenshots").path
        try? FileManager.default.removeItem(atPath: screenshots)
        let arguments = [
            Self.packageRoot.appendingPathComponent("scripts/console_browser_test.py").path, "--base", fixture.base,
            "--key", F.secret, "--recipients", list, "--out", screenshots, "--taps-command", ready,
            "--expect-tap-chart",
        ]
        // Once the campaign is out, its users tap: two Like, one Reply (the script waits for them).
        let poster = Task {
            // Another process (the browser script) says it is ready by writing a file, which offers no signal: polled.
            await Poll.until { FileManager.default.fileExists(atPath: ready) }
            let campaign = try String(contentsOfFile: ready, encoding: .utf8).trimmingCharacters(
                in: .whitespacesAndNewlines)
            let status = try await fixture.postTaps(
                campaign: campaign, [(1, "like", 1800), (2, "like", 5200), (3, "reply", 21_000)])
            try "\(status)".write(toFile: ready + ".done", atomically: true, encoding: .utf8)
            return status
        }
        let result = try await Blocking.run {
            try Self.run("/usr/bin/python3", arguments, outputIn: fixture.directory, timeout: 150)
        }
        poster.cancel()
        // The script's own report first: a poster cancelled because the script ended early says nothing of why.
        #expect(result.status == 0, "the browser test failed: \(result.stderr)\n\(result.stdout)")
        #expect((try? await poster.value) == 200, "the taps were not posted before the browser script ended")
        let report = try? JSONParser.parse(Array(result.stdout.utf8))
        let steps = report?.objectValue?["steps"]?.arrayValue?.compactMap(\.stringValue) ?? []
        #expect(steps.contains("preview changed with the title"), "\(steps)")
        #expect(steps.contains { $0.hasPrefix("diagnostic for an invalid URL") }, "\(steps)")
        #expect(
            steps.contains {
                $0.hasPrefix("campaign page has") && $0.contains("chart-outcomes") && $0.contains("chart-buttons")
            }, "\(steps)")
        for name in [
            "01-login", "02-compose", "03-compose-invalid-url", "04-campaign", "05-campaigns",
            "06-compose-phone", "07-devices",
        ] {
            let path = screenshots + "/\(name).png"
            let bytes = (try? Data(contentsOf: URL(fileURLWithPath: path))) ?? Data()
            #expect(
                bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) && bytes.count > 10_000, "\(path) is not a screenshot")
        }
    }

    @Test func scheduledLocalTimeCampaignToABuiltAudienceInChromium() async throws {
        let fixture = try await ConsoleFixture()
        defer { Task { await fixture.stop() } }
        let screenshots = Self.packageRoot.appendingPathComponent(".build/console-screenshots-levers").path
        try? FileManager.default.removeItem(atPath: screenshots)
        let arguments = [
            Self.packageRoot.appendingPathComponent("scripts/console_browser_test.py").path, "--base", fixture.base,
            "--key", F.secret, "--out", screenshots, "--levers",
        ]
        let result = try await Blocking.run {
            try Self.run("/usr/bin/python3", arguments, outputIn: fixture.directory, timeout: 150)
        }
        #expect(result.status == 0, "the browser test failed: \(result.stderr)\n\(result.stdout)")
        let report = try? JSONParser.parse(Array(result.stdout.utf8))
        let steps = report?.objectValue?["steps"]?.arrayValue?.compactMap(\.stringValue) ?? []
        #expect(steps.contains("preview title follows the fr tab"), "\(steps)")
        #expect(steps.contains("the arrow keys switch the language tabs"), "\(steps)")
        #expect(steps.contains("live count 4 -> 1 when a condition was added"), "\(steps)")
        #expect(steps.contains("removing the condition brought the count back to 4"), "\(steps)")
        #expect(steps.contains { $0.hasPrefix("campaign c_") && $0.contains("is scheduled") }, "\(steps)")
        #expect(steps.contains("listed as scheduled"), "\(steps)")
        #expect(steps.contains("variant B's preview tab follows its title"), "\(steps)")
    }

    /// Runs a program to its end (killed after `timeout` seconds): its status and output. The output goes to
    /// files, not pipes, for the reason ``ConsoleFixture/curl(_:_:jar:arguments:)`` gives.
    static func run(_ program: String, _ arguments: [String], outputIn directory: String, timeout: Double) throws
        -> (status: Int32, stdout: String, stderr: String)
    {
        let stdoutPath = directory + "/browser-test.out"
        let stderrPath = directory + "/browser-test.err"
        _ = FileManager.default.createFile(atPath: stdoutPath, contents: nil)
        _ = FileManager.default.createFile(atPath: stderrPath, contents: nil)
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: stdoutPath))
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: stderrPath))
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let pid = process.processIdentifier
        let watchdog = DispatchWorkItem { kill(pid, SIGKILL) }
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: watchdog)
        let exit = ProcessExit.wait(for: process)
        watchdog.cancel()
        let read = { (path: String) in (try? String(contentsOfFile: path, encoding: .utf8)) ?? "" }
        return (exit.signaled ? -exit.status : exit.status, read(stdoutPath), read(stderrPath))
    }
}
