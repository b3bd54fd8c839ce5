import Foundation
import Pushbutton

/// `pushbutton demo`: the whole path on this machine, with nothing to configure.
struct DemoCommand: Command {
    let name = "demo"
    let summary = "Run the whole path on this machine: define, send through a local APNs, tap, deliver."
    let discussion = """
        Starts the mock APNs in-process (TLS with a throwaway CA), creates a throwaway provider key,
        registers a simulated device, sends six interactive notifications (one to a device
        that uninstalled the app) through the real sender,
        delivers them to the device, taps their buttons, and delivers a background tap through the
        SQLite outbox to a local backend that fails once. Each step says what happened and how long it
        took; the exit status is 0 only if every step did what it should.
        --keep DIR keeps the manifest, payloads, keys, certificates and database for the other commands.
        Each run starts from fresh state: when DIR holds an earlier run's files, those files (and only
        those) are replaced; a DIR that is not empty and not an earlier demo's is refused.
        """
    static let keep = Option<String>(
        "--keep", value: "DIR",
        help: "Keep the generated files in DIR (created if needed; an earlier run's are replaced).")
    static let locale = Option<String>(
        "--locale", value: "LOCALE", help: "The simulated device's language: en (default) or fr.")
    let arguments = ArgumentSpec(options: [Self.keep, Self.locale])

    func run(_ arguments: ParsedArguments, console: Console) async throws -> Int32 {
        let kept = try arguments[Self.keep]
        let locale = try arguments[Self.locale] ?? "en"
        let directory = try DemoDirectory.prepare(
            kept ?? NSTemporaryDirectory() + "pushbutton-demo-" + String(UUID().uuidString.prefix(8))
        ).path
        defer { if kept == nil { try? FileManager.default.removeItem(atPath: directory) } }
        if let warning = LocaleAvailability(DemoContent.manifest).warning(for: locale) { console.printError(warning) }
        let story = DemoStory(console: console)
        let started = ContinuousClock.now
        let run = DemoRun(directory: directory, locale: locale, story: story)
        do {
            try await run.perform()
        } catch {
            story.check(false, "the demo could not go on: \(error)")
        }
        await run.tearDown()
        story.finishStep()
        let elapsed = (ContinuousClock.now - started).millisecondsText
        if story.failures.isEmpty {
            console.print("\nAll \(story.checks) checks passed in \(elapsed) ms.")
            if let kept { console.print("The files are in \(kept) (see its README.txt).") }
            return ExitStatus.success
        }
        console.printError(
            "demo: \(story.failures.count) of \(story.checks) checks failed: \(story.failures.joined(separator: "; "))")
        return ExitStatus.failure
    }
}
