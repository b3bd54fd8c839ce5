import Foundation
import Pushbutton
import PushbuttonPreview

/// `pushbutton preview PAYLOAD --manifest M`: how iOS would show the notification, as HTML and SVG.
struct PreviewCommand: Command {
    let name = "preview"
    let summary = "Render how iOS shows a notification and its buttons, to a self-contained HTML file and an SVG."
    let discussion = """
        Draws the banner and the expanded notification with its buttons: destructive ones in red, a lock
        for buttons that need an unlocked device, an arrow for those that open the app, the text field of
        reply buttons, and the placeholder iOS shows when previews are hidden (--hidden-previews). Titles
        are localized with --locale. Writes PREFIX.html and PREFIX.svg (--output, default: preview).
        """
    static let manifest = Option<String>(
        "--manifest", value: "FILE", help: "The app's manifest (its categories are registered on the device).")
    static let locale = Option<String>("--locale", value: "LOCALE", help: "The device's language (default en).")
    static let appName = Option<String>("--app-name", value: "NAME", help: "The app name in the header (default App).")
    static let output = Option<String>(
        "--output", short: "-o", value: "PREFIX", help: "Write PREFIX.html and PREFIX.svg (default preview).")
    static let hiddenPreviews = Flag("--hidden-previews", help: "Show what the lock screen shows with previews hidden.")
    let arguments = ArgumentSpec(
        options: [Self.manifest, Self.locale, Self.appName, Self.output], flags: [Self.hiddenPreviews],
        positionals: ["PAYLOAD"])

    func run(_ arguments: ParsedArguments, console: Console) async throws -> Int32 {
        let payloadPath = arguments.positionals[0]
        guard let manifestPath = try arguments[Self.manifest] else { throw UsageError("--manifest FILE is required") }
        let manifest = try ManifestLoading.load(manifestPath, console: console)
        let parsed = Payload.parse(try console.read(payloadPath))
        guard let payload = parsed.payload, parsed.isUsable else {
            for diagnostic in parsed.diagnostics {
                console.printError(DiagnosticPrinter.human(diagnostic, file: Console.displayName(payloadPath)))
            }
            throw CommandFailure("\(Console.displayName(payloadPath)) is not a payload")
        }
        let locale = try arguments[Self.locale] ?? manifest.defaultLocale
        var preview = NotificationPreview(
            payload: payload, categories: manifest.categorySet(), locale: locale,
            appName: try arguments[Self.appName] ?? "App", previewsHidden: arguments[Self.hiddenPreviews])
        preview.embedMedia(allowingLocalFiles: true)
        let prefix = try arguments[Self.output] ?? "preview"
        try write(HTMLPreviewRenderer.render(preview, locale: locale), to: prefix + ".html")
        try write(SVGPreviewRenderer.render(preview), to: prefix + ".svg")
        console.print("wrote \(prefix).html and \(prefix).svg: \(preview.buttons.count) button(s)")
        if let note = preview.note { console.print("note: \(note)") }
        return ExitStatus.success
    }

    private func write(_ text: String, to path: String) throws(CommandFailure) {
        do {
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        } catch {
            throw CommandFailure("cannot write '\(path)': \(error.localizedDescription)")
        }
    }
}
