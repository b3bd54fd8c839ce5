import Foundation
import Pushbutton
import PushbuttonAPNs
import PushbuttonStore

/// Validates, renders and durably queues notifications (`POST /v1/apps/{app}/notifications`, and the console's
/// sends), and reads them back. Everything accepted is committed to the store before it is answered; the
/// routes choose the status and render the values.
final class NotificationIntake: Sendable {
    let store: any GatewayStore
    let maximumRecipients: Int
    let metrics: GatewayMetrics
    let now: @Sendable () -> Date
    /// Reads `"to": {"segment": …}` and finds the devices it reaches.
    let segments: SegmentService

    init(store: any GatewayStore, maximumRecipients: Int, metrics: GatewayMetrics, now: @escaping @Sendable () -> Date)
    {
        self.store = store
        self.maximumRecipients = maximumRecipients
        self.metrics = metrics
        self.now = now
        segments = SegmentService(store: store, now: now)
    }

    static func newID(_ prefix: String) -> String {
        prefix + UUIDText.lowercase(APNsNotification.newID()).replacingOccurrences(of: "-", with: "")
    }

    /// The compiled payload of a draft, with the notification's ids under the `pushbutton` key.
    struct Compiled {
        var template: PayloadTemplate
        var warnings: [Diagnostic]
        /// The template in each language of `"localized"` (empty without).
        var localized: [String: PayloadTemplate] = [:]
    }

    func compile(
        _ draft: NotificationDraft, app: AppRuntime, notificationID: String, campaignID: String?,
        variant: String? = nil, locate: (([Diagnostic]) -> [Diagnostic])
    ) throws(GatewayError) -> Compiled {
        let parsed = Payload.parse(draft.payload)
        var diagnostics = parsed.diagnostics
        var template: PayloadTemplate?
        if let payload = parsed.payload, !diagnostics.containsErrors {
            do {
                let checked = try PayloadTemplate(
                    payload, validator: app.validator,
                    context: .init(pushType: draft.pushType, priority: draft.priority))
                diagnostics += checked.diagnostics
                var withIDs = payload
                var actions = withIDs.actions ?? PayloadActions()
                // The tracking ids of the issue-16 contract: a tap names them, so it is joined to its send.
                actions.notificationID = notificationID
                actions.campaignID = campaignID
                // An experiment's variant (issue 36), so a tap and a receipt name it too.
                if let variant { actions.extra["variant"] = .string(variant) }
                withIDs.actions = actions
                template = try PayloadTemplate(
                    withIDs, context: .init(pushType: draft.pushType, priority: draft.priority))
            } catch {
                diagnostics += error.diagnostics
            }
        }
        let mapped = locate(
            diagnostics.map { diagnostic in
                var moved = diagnostic
                moved.path = draft.requestPath(diagnostic.path)
                return moved
            })
        guard let template, !mapped.containsErrors else { throw .invalid(mapped, what: "the notification") }
        var compiled = Compiled(template: template, warnings: mapped.filter { $0.severity == .warning })
        compiled.localized = try compileLanguages(
            draft, app: app, notificationID: notificationID, campaignID: campaignID, variant: variant, locate: locate)
        return compiled
    }

    /// Each language of the draft's `"localized"` compiled as its own payload (checked as the default is:
    /// categories, buttons, lengths), its diagnostics at `localized.<language>.<field>`.
    private func compileLanguages(
        _ draft: NotificationDraft, app: AppRuntime, notificationID: String, campaignID: String?,
        variant: String?, locate: (([Diagnostic]) -> [Diagnostic])
    ) throws(GatewayError) -> [String: PayloadTemplate] {
        var templates: [String: PayloadTemplate] = [:]
        let experimentVariant = variant
        for language in draft.localized.keys.sorted() {
            var variant = draft
            variant.payload = draft.payload(in: language)
            variant.localized = [:]
            do {
                templates[language] =
                    try compile(
                        variant, app: app, notificationID: notificationID, campaignID: campaignID,
                        variant: experimentVariant, locate: { $0 }
                    ).template
            } catch {
                let moved = error.diagnostics.map { diagnostic in
                    var moved = diagnostic
                    moved.path = draft.localizedPath(
                        variant.givenWhole
                            ? JSONPath(components: Array(diagnostic.path.components.dropFirst()))
                            : Self.payloadPath(diagnostic.path), language: language)
                    moved.message = "in '\(language)': " + diagnostic.message
                    // A problem of the whole payload (its size) is this language's.
                    if moved.path == .root { moved.path = JSONPath.root.appending("localized").appending(language) }
                    return moved
                }
                throw .invalid(locate(moved), what: "the notification")
            }
        }
        return templates
    }

    /// A request path the compiler reported for a built payload (`title`) as the payload's own (`aps.alert.title`).
    private static func payloadPath(_ path: JSONPath) -> JSONPath {
        guard case .key(let first) = path.components.first, NotificationDraft.localizedKeys.contains(first) else {
            return path
        }
        return JSONPath(components: [.key("aps"), .key("alert")] + path.components)
    }

    /// The payload in its default text and each language, rendered with `data`; a payload over APNs' size
    /// limit in one language is refused naming that language (`localized.<language>`).
    func renderLanguages(_ compiled: Compiled, data: [String: JSONValue], at path: JSONPath, line: Int? = nil)
        throws(GatewayError) -> LocalizedPayloads
    {
        var payloads = LocalizedPayloads(base: try render(compiled, data: data, at: path, line: line))
        for (language, template) in compiled.localized {
            do {
                payloads.languages[language] = try template.render(template.values(data))
            } catch {
                throw .invalid(
                    [
                        Diagnostic(
                            .error, "template-data", at: .root.appending("localized").appending(language),
                            "in '\(language)': \(error.description)",
                            hint: "shorten this language's text (each language is checked against APNs' size limit)",
                            location: line.map { SourceLocation(line: $0, column: 1, offset: 0) })
                    ], what: "the template data")
            }
        }
        return payloads
    }

    func render(_ compiled: Compiled, data: [String: JSONValue], at path: JSONPath, line: Int? = nil)
        throws(GatewayError) -> [UInt8]
    {
        do {
            return try compiled.template.render(compiled.template.values(data))
        } catch {
            throw .invalid(
                [
                    Diagnostic(
                        .error, "template-data", at: path,
                        error.description,
                        hint:
                            "give a value for each placeholder ({{name}}) of the payload, and keep it under APNs' size limit",
                        location: line.map { SourceLocation(line: $0, column: 1, offset: 0) })
                ], what: "the template data")
        }
    }

    /// The fingerprint an `Idempotency-Key` is stored with: the same key with other bytes is a conflict.
    func fingerprint(_ app: AppRuntime, _ bytes: [UInt8]) -> String {
        Digest.hex(Digest.sha256(Array(app.id.utf8) + [0] + bytes))
    }

    /// Queues a notification to the tokens, the user or the tag its `to` names; `waited`: a request waits for
    /// its outcomes (``OutcomeWait``), stored with it so that another process recording them says so.
    func send(app: AppRuntime, request: IntakeRequest, idempotencyKey: String?, waited: Bool = false)
        throws(GatewayError) -> AcceptedNotification
    {
        var diagnostics: [Diagnostic] = []
        let created = now()
        let timing = SendTiming.read(request.value, campaign: false, now: created, diagnostics: &diagnostics)
        guard let draft = NotificationDraft.read(request.value, campaign: false, diagnostics: &diagnostics),
            !diagnostics.containsErrors
        else { throw .invalid(request.locate(diagnostics), what: "the notification") }
        var segment: Segment?
        if let expression = draft.segment {
            segment = try segments.read(expression, at: Self.segmentPath, app: app.id, diagnostics: &diagnostics)
        }
        guard !diagnostics.containsErrors, let audience = draft.audience ?? segment.map(Audience.segment) else {
            throw .invalid(request.locate(diagnostics), what: "the notification")
        }
        let id = Self.newID("n_")
        let compiled = try compile(draft, app: app, notificationID: id, campaignID: nil, locate: request.locate)
        let payloads = try renderLanguages(compiled, data: draft.data, at: .root.appending("data"))
        let tokens = try recipients(audience, app: app)
        // Each device's language from its registration: looked up only when there are languages to choose.
        let locales = payloads.languages.isEmpty ? [:] : try deviceLocales(app: app.id, tokens: tokens)
        var match = LocaleMatch(payloads.languages.keys)
        // Quiet hours hold a single notification only when it asks (`"quiet_hours": true`).
        let quiet = timing.heldByQuietHours(campaign: false) ? app.configuration.quietHours : nil
        let (due, held) = try dueTimes(timing, tokens: tokens, app: app, quiet: quiet, now: created)
        let deliveries = tokens.map {
            let (payload, language) = payloads.chosen(for: locales[$0], match: &match)
            return NewDelivery(
                token: $0, apnsID: UUIDText.lowercase(APNsNotification.newID()), payload: payload, dueAt: due[$0],
                heldBecause: held.contains($0) ? QuietHours.heldReason : nil, language: language)
        }
        var spec = NotificationSpec(
            id: id, app: app.id, kind: .notification, topic: app.configuration.topic, pushType: draft.pushType.rawValue,
            priority: draft.priority, expiration: draft.expiration, collapseID: draft.collapseID, createdAt: created,
            request: request.bytes, sendAt: timing.sendAt)
        spec.wakesWaiters = waited
        spec.frequencyCap = app.configuration.frequencyCap
        spec.heldToFrequencyCap = timing.heldToFrequencyCap(campaign: false)
        spec.quietHours = timing.quietHoursHold(campaign: false, app: app.configuration)
        let key = idempotencyKey.map { IdempotencyKey(key: $0, fingerprint: fingerprint(app, request.bytes)) }
        let (result, record) = try storing { () throws(StoreError) in
            try store.enqueueRecorded(spec, deliveries: deliveries, idempotency: key, now: now())
        }
        switch result {
        case .created:
            metrics.accepted(app.id, deliveries.count)
            // As committed, when the store has it at hand: no read back.
            if let record {
                return AcceptedNotification(record: try scheduled(record), warnings: compiled.warnings, replayed: false)
            }
            return try accepted(id: id, warnings: compiled.warnings, replayed: false)
        case .replayed(let first, let same):
            guard same else { throw Self.idempotencyConflict() }
            return try accepted(id: first, warnings: compiled.warnings, replayed: true)
        }
    }

    /// The registered locales of those of `tokens` registered for `app`.
    func deviceLocales(app: String, tokens: [String]) throws(GatewayError) -> [String: String] {
        let segments = try segments.segments
        return try storing { () throws(StoreError) in try segments.locales(app: app, tokens: tokens) }
    }

    /// The tokens an audience names: a list given (at most ``maximumRecipients``), or a user's or tag's devices.
    private func recipients(_ audience: Audience, app: AppRuntime) throws(GatewayError) -> [String] {
        switch audience {
        case .tokens(let given):
            guard given.count <= maximumRecipients else {
                throw .invalid(
                    [
                        Diagnostic(
                            .error, .valueRange, at: .root.appending("to").appending("tokens"),
                            "\(given.count) tokens is more than this gateway's limit of \(maximumRecipients) per request",
                            hint: "split the list, or send it as a campaign (POST /v1/apps/{app}/campaigns)")
                    ], what: "the notification")
            }
            return Array(Set(given)).sorted()
        case .segment(let segment):
            // One more than the limit tells an audience over it, which is refused, never cut to the limit.
            let segments = try segments.segments
            let devices = try storing { () throws(StoreError) in
                try segments.devices(
                    app: app.id, segment: segment, now: now(), after: nil, limit: maximumRecipients + 1)
            }
            guard devices.count <= maximumRecipients else { throw audienceTooLarge(audience) }
            return devices.map(\.token)
        case .user, .tag:
            // One more than the limit tells an audience over it, which is refused, never cut to the limit.
            let tokens = try storing { () throws(StoreError) in
                try store.tokens(app: app.id, audience: audience, limit: maximumRecipients + 1)
            }
            guard tokens.count <= maximumRecipients else { throw audienceTooLarge(audience) }
            return tokens
        }
    }

    /// A user or a tag with more active devices than one notification may reach: a `422` that names the limit
    /// and points to a campaign, which takes any number in pages.
    private func audienceTooLarge(_ audience: Audience) -> GatewayError {
        let (what, key): (String, String) =
            switch audience {
            case .user(let user): ("the user '\(user)'", "user")
            case .tag(let tag): ("the tag '\(tag)'", "tag")
            case .tokens: ("the tokens", "tokens")
            case .segment: ("the segment", "segment")
            }
        return .invalid(
            [
                Diagnostic(
                    .error, .valueRange, at: .root.appending("to").appending(key),
                    "\(what) reaches more than \(maximumRecipients) active devices, this gateway's limit per "
                        + "notification (limits.maxRecipients); nothing was sent to any of them",
                    hint: "send to them as a campaign (POST /v1/apps/{app}/campaigns), in pages of at most "
                        + "\(maximumRecipients) lines")
            ], what: "the notification")
    }

    /// Where a request's segment is: `to.segment`.
    static let segmentPath = JSONPath.root.appending("to").appending("segment")

    static func idempotencyConflict() -> GatewayError {
        GatewayError(
            409, "idempotency_conflict",
            "this Idempotency-Key was used with a different request; use a new key for a new request")
    }

    /// Each token's own due time (a local-time send, a quiet-hours hold; the devices' registered zones, else the
    /// app's default) and those held by `quiet` hours; empty when neither applies (no lookup).
    func dueTimes(_ timing: SendTiming, tokens: [String], app: AppRuntime, quiet: QuietHours?, now: Date)
        throws(GatewayError) -> (due: [String: Date], held: Set<String>)
    {
        guard timing.localTime != nil || (quiet != nil && !timing.ignoreQuietHours), !tokens.isEmpty else {
            return ([:], [])
        }
        let devices = try storing { () throws(StoreError) in try store.deviceTimes(app: app.id, tokens: tokens) }
        return timing.dueTimes(
            for: tokens, devices: devices, defaultZone: app.configuration.defaultZone, quiet: quiet, now: now)
    }

    /// `record` with what of it waits (scheduled, held, throttled) now. A single notification sent at once (no
    /// `send_at`, no `local_time` or `quiet_hours`: the bytes it was stored with never name them) waits for nothing: its zeros are
    /// known without the two reads, which every `POST` would otherwise pay.
    func scheduled(_ record: NotificationRecord) throws(GatewayError) -> NotificationRecord {
        var record = record
        if record.spec.kind == .notification, record.spec.sendAt == nil,
            !Self.names(Array("\"local_time\"".utf8), in: record.spec.request),
            !Self.names(Array("\"quiet_hours\"".utf8), in: record.spec.request)
        {
            record.schedule = ScheduleCounts()
            return record
        }
        let at = now()
        record.schedule = try storing { () throws(StoreError) in try store.schedule(of: record.spec.id, now: at) }
        return record
    }

    /// Whether `needle` occurs in `bytes`.
    private static func names(_ needle: [UInt8], in bytes: [UInt8]) -> Bool {
        guard let first = needle.first, bytes.count >= needle.count else { return false }
        var index = bytes.startIndex
        while let found = bytes[index...].firstIndex(of: first) {
            guard found + needle.count <= bytes.count else { return false }
            if bytes[found..<found + needle.count].elementsEqual(needle) { return true }
            index = found + 1
        }
        return false
    }

    /// Cancels a single notification of `app` (`POST /v1/notifications/{id}/cancel`): its recipients not yet
    /// sent are never sent; the notification as it is now.
    func cancel(notification id: String, app: String) throws(GatewayError) -> NotificationRecord {
        let record = try notification(id: id, app: app, limit: 0, after: 0)
        guard record.spec.kind == .notification else {
            throw GatewayError(
                409, "not_a_notification", "\(id) is a campaign; cancel it with POST /v1/campaigns/\(id)/cancel")
        }
        guard
            let cancelled = try storing({ () throws(StoreError) in try store.cancel(notification: id, now: now()) })
        else { throw .notFound("no notification has the id '\(id)'") }
        return try scheduled(cancelled)
    }

    private func accepted(id: String, warnings: [Diagnostic], replayed: Bool) throws(GatewayError)
        -> AcceptedNotification
    {
        guard
            let record = try storing({ () throws(StoreError) in
                try store.notification(id: id, limit: 1000, after: 0)
            }).map({ (record: NotificationRecord) throws(GatewayError) in try scheduled(record) })
        else { throw .notFound("notification \(id) vanished") }
        return AcceptedNotification(record: record, warnings: warnings, replayed: replayed)
    }

    /// A notification or campaign of `app` with a page of its deliveries.
    func notification(id: String, app: String, limit: Int, after: Int64) throws(GatewayError) -> NotificationRecord {
        guard
            let record = try storing({ () throws(StoreError) in
                try store.notification(id: id, limit: limit, after: after)
            })
        else { throw .notFound("no notification or campaign has the id '\(id)'") }
        guard record.spec.app == app else {
            throw .forbidden("notification \(id) belongs to another app; use that app's secret key")
        }
        return try scheduled(record)
    }
}
