import Foundation
import Pushbutton
import PushbuttonAPNs
import PushbuttonPreview
import PushbuttonStore

/// The compose page's work: checks a ``ComposeForm`` against the app's manifest exactly as the API would, draws
/// its preview, and sends it through the same intake as `POST /v1/apps/{app}/notifications` and `…/campaigns`:
/// the form is handed over as a value and the answer used as one (no JSON written to call the intake, none
/// read back). The audience builder is counted by ``SegmentService``'s reader and the store's count.
struct ComposeService: Sendable {
    let services: GatewayServices

    /// A checked form: its preview (when the payload could be built) and the diagnostics by form field.
    struct Check: Sendable {
        var preview: NotificationPreview?
        var diagnostics: [Diagnostic]
        /// An experiment's variants in order, each drawn (the first is the form's own notification).
        var variants: [VariantPreview] = []

        /// One variant's name and preview.
        struct VariantPreview: Sendable {
            var name: String
            var preview: NotificationPreview?
        }

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

    /// The form checked as the intake will check it: the payload in every language, the timing (`SendTiming`,
    /// with the campaign's rules when it is one), the audience builder's conditions, each at its row, and an
    /// experiment's header (``ExperimentPlan``'s reader) with each variant compiled and drawn.
    func check(_ form: ComposeForm, app: AppRuntime, catalog: ConsoleCatalog) -> Check {
        let buttonsOf = { (category: String) in catalog.category(category)?.actions.map(\.identifier) ?? [] }
        let (value, formDiagnostics) = form.draftJSON(buttons: buttonsOf(form.category), buttonsOf: buttonsOf)
        let experiment = form.experiment.isActive
        var diagnostics = formDiagnostics
        var timing: [Diagnostic] = []
        _ = SendTiming.read(
            value, campaign: form.audience.isCampaign || experiment, now: services.now(), diagnostics: &timing)
        // Variant A's notification: the form's own fields, without the experiment's (the draft reader's
        // diagnostics about those come from the experiment's reader).
        var main = value.objectValue ?? [:]
        for key in ExperimentPlan.keys { main[key] = nil }
        let drawn = draw(.object(main), app: app, locale: form.locale, locate: { $0 })
        diagnostics += timing + drawn.diagnostics
        var variants: [Check.VariantPreview] = []
        if experiment, let items = value.objectValue?["variants"]?.arrayValue {
            var plan: [Diagnostic] = []
            ExperimentPlan.read(value, diagnostics: &plan)?.checkMetric(app.validator, diagnostics: &plan)
            diagnostics += plan
            for (index, item) in items.enumerated() {
                let name = item.objectValue?["name"]?.stringValue ?? ""
                guard index > 0 else {
                    variants.append(.init(name: name, preview: drawn.preview))
                    continue
                }
                var merged = main
                var own = Set<String>()
                for (key, field) in item.objectValue ?? [:] where key != "name" && key != "share" {
                    merged[key] = field
                    own.insert(key)
                }
                let variant = draw(
                    .object(merged), app: app, locale: form.locale, variant: name,
                    locate: { $0.map { ExperimentPlan.locate($0, variant: index, fields: own) } })
                diagnostics += variant.diagnostics
                variants.append(.init(name: name, preview: variant.preview))
            }
            if !form.audience.isCampaign || form.audience == .segment {
                diagnostics.append(
                    Diagnostic(
                        .error, .inconsistentAction, at: .root.appending("variants"),
                        "an experiment is a campaign to a recipient list: choose 'A recipient list' under Send to",
                        hint: "or remove the variants to send one notification"))
            }
        }
        if form.audience == .segment { diagnostics += audienceDiagnostics(form.builder, app: app) }
        // The experiment's reader reads each variant's notification too: a problem it shares with the form's
        // own is said once.
        var seen = Set<String>()
        diagnostics = diagnostics.filter { seen.insert("\($0.path)|\($0.message)").inserted }
        return Check(preview: drawn.preview, diagnostics: diagnostics, variants: variants)
    }

    /// One notification read, compiled and drawn as a device in `locale` shows it (its language's fallbacks
    /// included); its diagnostics moved by `locate`.
    private func draw(
        _ value: JSONValue, app: AppRuntime, locale: String, variant: String? = nil,
        locate: @escaping ([Diagnostic]) -> [Diagnostic]
    ) -> (preview: NotificationPreview?, diagnostics: [Diagnostic]) {
        var read: [Diagnostic] = []
        guard let draft = NotificationDraft.read(value, campaign: true, diagnostics: &read) else {
            return (nil, locate(read))
        }
        var diagnostics = locate(read)
        do {
            let compiled = try services.notifications.compile(
                draft, app: app, notificationID: "n_preview", campaignID: nil, variant: variant, locate: locate)
            diagnostics += compiled.warnings
        } catch {
            diagnostics += error.diagnostics
        }
        var match = LocaleMatch(draft.localized.keys)
        let shown = match.language(for: locale).map(draft.payload(in:)) ?? draft.payload
        guard let payload = Payload.parse(shown).payload else { return (nil, diagnostics) }
        return (
            NotificationPreview(
                payload: payload, categories: app.validator.categories, locale: locale, appName: app.id,
                previewsHidden: false),
            diagnostics
        )
    }

    /// Each builder row read alone (its problems at `seg.N`), then the whole: nothing chosen is a problem too.
    func audienceDiagnostics(_ builder: AudienceBuilder, app: AppRuntime) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        do {
            for (row, leaf) in builder.leaves {
                _ = try services.segments.read(
                    leaf, at: .root.appending(AudienceBuilder.field(row)), app: app.id, diagnostics: &diagnostics)
            }
            if !builder.saved.isEmpty {
                _ = try services.segments.read(
                    .object(["saved": .string(builder.saved)]), at: .root.appending("seg_saved"),
                    app: app.id, diagnostics: &diagnostics)
            }
        } catch {
            diagnostics += error.diagnostics.isEmpty ? [Self.audienceProblem(error.message)] : error.diagnostics
        }
        if builder.expression == nil {
            diagnostics.append(
                Self.audienceProblem(
                    "the audience has no condition",
                    hint: "add a condition (a tag, a language…) or pick a saved segment"
                ))
        }
        return diagnostics
    }

    private static func audienceProblem(_ message: String, hint: String? = nil) -> Diagnostic {
        Diagnostic(.error, .missingField, at: .root.appending("to").appending("segment"), message, hint: hint)
    }

    /// How many active devices the builder's segment reaches now (`SegmentService`'s count, as
    /// `POST /v1/apps/{app}/audience/count` answers), or why it cannot be counted.
    func count(_ builder: AudienceBuilder, app: AppRuntime) -> Result<Int, GatewayError> {
        let problems = audienceDiagnostics(builder, app: app).filter { $0.severity == .error }
        guard problems.isEmpty, let expression = builder.expression else {
            return .failure(.invalid(problems, what: "the audience"))
        }
        do throws(GatewayError) {
            var diagnostics: [Diagnostic] = []
            guard
                let segment = try services.segments.read(
                    expression, at: NotificationIntake.segmentPath, app: app.id, diagnostics: &diagnostics),
                !diagnostics.containsErrors
            else { return .failure(.invalid(diagnostics, what: "the audience")) }
            let store = try services.segments.segments
            let now = services.now()
            return .success(
                try storing { () throws(StoreError) in try store.countDevices(app: app.id, segment: segment, now: now) }
            )
        } catch {
            return .failure(error)
        }
    }

    /// The app's saved segments' names (none when the store cannot say).
    func savedSegmentNames(app: AppRuntime) -> [String] {
        ((try? services.segments.list(app: app)) ?? []).map(\.name)
    }

    func send(_ form: ComposeForm, app: AppRuntime, catalog: ConsoleCatalog, idempotencyKey: String?) -> Outcome {
        let checked = check(form, app: app, catalog: catalog)
        guard !checked.hasErrors else {
            return .refused(
                message: "The notification has errors; nothing was sent.",
                diagnostics: checked.diagnostics.filter { $0.severity == .error })
        }
        let buttonsOf = { (category: String) in catalog.category(category)?.actions.map(\.identifier) ?? [] }
        guard var draft = form.draftJSON(buttons: buttonsOf(form.category), buttonsOf: buttonsOf).value.objectValue
        else {
            return .refused(message: "The notification could not be built.", diagnostics: [])
        }
        do {
            switch form.audience {
            case .list:
                let recipients = try recipientList(form.recipients)
                let accepted = try services.campaigns.create(
                    app: app, campaign: IntakeRequest(value: .object(draft)), recipients: recipients,
                    idempotencyKey: idempotencyKey)
                return .campaign(id: accepted.record.spec.id)
            case .segment:
                // The segment's devices are the campaign's recipients: no list.
                guard let expression = form.builder.expression else {
                    return .refused(message: "The audience has no condition; nothing was sent.", diagnostics: [])
                }
                draft["to"] = .object(["segment": expression])
                let accepted = try services.campaigns.create(
                    app: app, campaign: IntakeRequest(value: .object(draft)),
                    recipients: RecipientList([], path: .root.appending("recipients")), idempotencyKey: idempotencyKey)
                return .campaign(id: accepted.record.spec.id)
            case .token, .user, .tag:
                let recipient: (String, JSONValue) =
                    switch form.audience {
                    case .user: ("user", .string(form.user))
                    case .tag: ("tag", .string(form.tag))
                    default: ("tokens", .array([.string(form.token)]))
                    }
                draft["to"] = .object([recipient.0: recipient.1])
                let accepted = try services.notifications.send(
                    app: app, request: IntakeRequest(value: .object(draft)), idempotencyKey: idempotencyKey)
                return .sent(id: accepted.record.spec.id, recipients: accepted.record.total)
            }
        } catch {
            return .refused(message: error.message, diagnostics: error.diagnostics)
        }
    }

    /// The uploaded recipient list, read by the campaign intake's one reader (``RecipientList``: device tokens
    /// or recipient objects, blank and `#` lines skipped), its diagnostics at the form's `recipients` field.
    func recipientList(_ file: FormFields.File?) throws(GatewayError) -> RecipientList {
        func refuse(_ message: String) -> GatewayError {
            .invalid(
                [
                    Diagnostic(
                        .error, "invalid-recipient", at: .root.appending("recipients"), message,
                        hint: #"one device token (64 hex digits) or {"token": …} / {"user": …} per line"#)
                ], what: "the recipient list")
        }
        guard let file, !file.bytes.isEmpty else { throw refuse("choose a recipient list file to upload") }
        let list = RecipientList(file.bytes, path: .root.appending("recipients"))
        guard !list.lines.isEmpty else { throw refuse("the file '\(file.filename)' names no recipient") }
        return list
    }
}
