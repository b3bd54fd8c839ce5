import Foundation
import Pushbutton
import PushbuttonOutbox
import PushbuttonReceiver
import PushbuttonReceiverTesting
import PushbuttonSupport

/// `pushbutton simulate PAYLOAD --manifest M --tap ID`: what a device would show and do.
struct SimulateCommand: Command {
    let name = "simulate"
    let summary = "Show what a device displays for a payload and what a tap runs."
    let discussion = """
        Registers the manifest's categories on a simulated device (merging, as Pushbutton does on iOS),
        delivers the payload, performs the tap and prints each step: the buttons shown and their styles,
        what ran with which arguments and situation, what was refused and why, and when the completion
        handler was called. --tap takes a button identifier, 'body' or 'dismiss'; --text types a reply.
        App-defined actions are stood in for by handlers that print what they receive.
        Exit status 1 when the tap is not possible on the device (e.g. the button is not shown).
        """
    static let manifest = Option<String>("--manifest", value: "FILE", help: "The app's manifest (required).")
    static let tap = Option<String>("--tap", value: "ID", help: "A button identifier, 'body' or 'dismiss' (required).")
    static let text = Option<String>("--text", value: "REPLY", help: "The reply typed into a text-input button.")
    static let appState = Option<String>(
        "--app-state", value: "STATE", help: "foreground, background (default) or killed.")
    static let locale = Option<String>("--locale", value: "LOCALE", help: "The device's language (default en).")
    static let outbox = Option<String>(
        "--outbox", value: "DB",
        help: "Commit backend callbacks to this outbox database (created if missing) and log the tap there.")
    let arguments = ArgumentSpec(
        options: [Self.manifest, Self.tap, Self.text, Self.appState, Self.locale, Self.outbox],
        positionals: ["PAYLOAD"])

    func run(_ arguments: ParsedArguments, console: Console) async throws -> Int32 {
        guard let manifestPath = try arguments[Self.manifest] else { throw UsageError("--manifest FILE is required") }
        guard let tap = try arguments[Self.tap] else { throw UsageError("--tap ID is required") }
        let appState = try arguments[Self.appState] ?? "background"
        guard ["foreground", "background", "killed"].contains(appState) else {
            throw UsageError("--app-state must be foreground, background or killed, not '\(appState)'")
        }
        let manifest = try ManifestLoading.load(manifestPath, console: console)
        let locale = try arguments[Self.locale] ?? "en"
        if let warning = LocaleAvailability(manifest).warning(for: locale) { console.printError(warning) }
        let payloadPath = arguments.positionals[0]
        let parsed = PayloadValidator(manifest: manifest).validate(jsonBytes: try console.read(payloadPath))
        guard let payload = parsed.payload else {
            for diagnostic in parsed.diagnostics {
                console.printError(DiagnosticPrinter.human(diagnostic, file: Console.displayName(payloadPath)))
            }
            throw CommandFailure("\(Console.displayName(payloadPath)) is not a payload")
        }
        var story = SimulationStory(console: console)
        for diagnostic in parsed.diagnostics where diagnostic.severity >= .warning {
            story.say("⚠︎ \(diagnostic.severity.rawValue): \(diagnostic.path): \(diagnostic.message)")
        }
        let outbox: Outbox?
        do {
            outbox = try (try arguments[Self.outbox]).map { try Outbox(path: $0) }
        } catch {
            throw CommandFailure("cannot open the outbox: \(error)")
        }
        let device = SimulatedDevice(
            locale: locale, manifest: manifest, payload: payload, outbox: outbox)
        try await device.setUp(story: &story)
        let shown = try await device.deliver(story: &story)
        story.say("App state: \(appState)" + Self.appStateNote(appState, tap: tap, shown: shown))
        let delivery = try await device.perform(tap: tap, text: try arguments[Self.text], on: shown, story: &story)
        await device.tell(delivery, story: &story)
        if let outbox, let report = device.recorder.reports.withLock({ $0.last }) {
            try await outbox.record(report)
            let status = try await outbox.status()
            story.say(
                "Outbox \(outbox.path): \(status.pending) pending, \(status.delivered) delivered, \(status.dead) dead-lettered"
            )
        }
        return ExitStatus.success
    }

    private static func appStateNote(_ state: String, tap: String, shown: DisplayedNotification) -> String {
        let opens = tap == "body" || shown.buttons.first { $0.identifier == tap }?.opensApp == true
        switch (state, opens) {
        case ("killed", true): return " — the tap launches the app"
        case ("killed", false): return " — iOS launches the app in the background to run the action"
        case ("background", true): return " — the tap brings the app to the foreground"
        case ("background", false): return " — the action runs in a short background window"
        default: return " — the app is open"
        }
    }
}
