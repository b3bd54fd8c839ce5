import Foundation
import Pushbutton
import PushbuttonAPNs
import PushbuttonPreview

/// The compose page's work: checks a ``ComposeForm`` against the app's manifest exactly as the API would, draws
/// its preview, and sends it through the same intake as `POST /v1/apps/{app}/notifications` and `…/campaigns`.
struct ComposeService: Sendable {
    let intake: IntakeService

    /// A checked form: its preview (when the payload could be built) and the diagnostics by form field.
    struct Check: Sendable {
        var preview: NotificationPreview?
        var diagnostics: [Diagnostic]

        var hasErrors: Bool { diagnostics.containsErrors }

        /// The diagnostics about one field of the form (see ``ComposeForm/field(of:)``).
        var byField: [String: [Diagnostic]] {
            Dictionary(grouping: diagnostics) { ComposeForm.field(of: $0.path) }
        }
    }

    /// What sending did.
    enum Outcome: Sendable {
        /// Queued: the notification's id and how many recipients it has.
        case sent(id: String, recipients: Int)
        /// A campaign was created with this id.
        case campaign(id: String)
        /// Refused: why, and the diagnostics by field.
        case refused(message: String, diagnostics: [Diagnostic])
    }

    func check(_ form: ComposeForm, app: AppRuntime, catalog: ConsoleCatalog) -> Check {
        let buttons = catalog.category(form.category)?.actions.map(\.identifier) ?? []
        let (value, formDiagnostics) = form.draftJSON(buttons: buttons)
        var diagnostics = formDiagnostics
        var preview: NotificationPreview?
        var read: [Diagnostic] = []
        if let draft = NotificationDraft.read(value, campaign: true, diagnostics: &read) {
            diagnostics += read
            do {
                let compiled = try intake.compile(
                    draft, app: app, notificationID: "n_preview", campaignID: nil, locate: { $0 })
                diagnostics += compiled.warnings
            } catch {
                diagnostics += error.diagnostics
            }
            if let payload = Payload.parse(draft.payload).payload {
                preview = NotificationPreview(
                    payload: payload, categories: app.validator.categories, locale: form.locale, appName: app.id,
                    previewsHidden: false)
            }
        } else {
            diagnostics += read
        }
        return Check(preview: preview, diagnostics: diagnostics)
    }

    func send(_ form: ComposeForm, app: AppRuntime, catalog: ConsoleCatalog, idempotencyKey: String?) -> Outcome {
        let checked = check(form, app: app, catalog: catalog)
        guard !checked.hasErrors else {
            return .refused(
                message: "The notification has errors; nothing was sent.",
                diagnostics: checked.diagnostics.filter { $0.severity == .error })
        }
        let buttons = catalog.category(form.category)?.actions.map(\.identifier) ?? []
        guard var draft = form.draftJSON(buttons: buttons).value.objectValue else {
            return .refused(message: "The notification could not be built.", diagnostics: [])
        }
        do {
            switch form.audience {
            case .list:
                let lines = try recipientLines(form.recipients)
                var body = JSONWriter.compact(.object(draft))
                for line in lines {
                    body.append(0x0A)
                    body += line
                }
                let response = try intake.createCampaign(app: app, body: body, idempotencyKey: idempotencyKey)
                return .campaign(id: Self.id(of: response))
            case .token, .user, .tag:
                let recipient: (String, JSONValue) =
                    switch form.audience {
                    case .user: ("user", .string(form.user))
                    case .tag: ("tag", .string(form.tag))
                    default: ("tokens", .array([.string(form.token)]))
                    }
                draft["to"] = .object([recipient.0: recipient.1])
                let response = try intake.send(
                    app: app, body: JSONWriter.compact(.object(draft)), idempotencyKey: idempotencyKey)
                let recipients = (try? JSONParser.parse(response.body))?.objectValue?["recipients"]?.integerValue
                return .sent(id: Self.id(of: response), recipients: Int(recipients ?? 0))
            }
        } catch {
            return .refused(message: error.message, diagnostics: error.diagnostics)
        }
    }

    private static func id(of response: HTTPResponse) -> String {
        (try? JSONParser.parse(response.body))?.objectValue?["id"]?.stringValue ?? ""
    }

    /// An uploaded recipient list as the campaign's NDJSON lines: each line a device token (64 hex digits) or
    /// a recipient object (`{"token": …}` or `{"user": …}` with optional `data`); blank and `#` lines skipped.
    func recipientLines(_ file: FormFields.File?) throws(GatewayError) -> [[UInt8]] {
        func refuse(_ message: String, line: Int? = nil) -> GatewayError {
            .invalid(
                [
                    Diagnostic(
                        .error, "invalid-recipient", at: .root.appending("recipients"),
                        line.map { "line \($0): \(message)" } ?? message,
                        hint: #"one device token (64 hex digits) or {"token": …} / {"user": …} per line"#)
                ], what: "the recipient list")
        }
        guard let file, !file.bytes.isEmpty else { throw refuse("choose a recipient list file to upload") }
        var lines: [[UInt8]] = []
        for (index, raw) in String(decoding: file.bytes, as: UTF8.self).split(
            separator: "\n", omittingEmptySubsequences: false
        ).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespacesAndNewlines)
            if line.isEmpty || line.hasPrefix("#") { continue }
            if line.hasPrefix("{") {
                lines.append(Array(line.utf8))
            } else if let token = try? DeviceToken(line) {
                // The sender's own check, as the API's recipient lines have it.
                lines.append(JSONWriter.compact(.object(["token": .string(token.hex)])))
            } else {
                throw refuse(
                    "'\(DeviceToken.redact(line))' is neither a device token nor a JSON object", line: index + 1)
            }
        }
        guard !lines.isEmpty else { throw refuse("the file '\(file.filename)' names no recipient") }
        return lines
    }
}
