import Foundation
import Pushbutton
import PushbuttonAPNs
import PushbuttonStore

/// A campaign with an experiment (issue 36): each variant compiled and size-checked on its own, each device
/// given its variant by ``ExperimentAssignment``, the holdout and (with a test phase) the devices outside the
/// test group recorded without a delivery. A test's recipient is only its delivery, naming its variant (and its
/// language): its payload is the variant's (in that language), rendered once per page and stored once per
/// campaign, as a plain campaign's is.
extension CampaignIntake {
    /// The variants compiled, in order.
    func compile(_ plan: ExperimentPlan, app: AppRuntime, id: String, locate: @escaping ([Diagnostic]) -> [Diagnostic])
        throws(GatewayError) -> [NotificationIntake.Compiled]
    {
        var compiled: [NotificationIntake.Compiled] = []
        for (index, variant) in plan.variants.enumerated() {
            compiled.append(
                try notifications.compile(
                    variant.draft, app: app, notificationID: id, campaignID: id, variant: variant.name,
                    locate: { diagnostics in
                        locate(diagnostics.map { ExperimentPlan.locate($0, variant: index, fields: variant.fields) })
                    }))
        }
        return compiled
    }

    /// The experiment's store, or a `501` when the store has none.
    var experimentStore: any ExperimentStore {
        get throws(GatewayError) {
            guard let store = notifications.store as? any ExperimentStore else {
                throw GatewayError(501, "experiments_unsupported", "this gateway's store does not keep experiments")
            }
            return store
        }
    }

    func createExperiment(
        app: AppRuntime, campaign: IntakeRequest, recipients: RecipientList, fingerprinted: [UInt8],
        idempotencyKey: String?
    ) throws(GatewayError) -> AcceptedNotification {
        var diagnostics: [Diagnostic] = []
        let created = notifications.now()
        var timing = SendTiming.read(campaign.value, campaign: true, now: created, diagnostics: &diagnostics)
        let plan = ExperimentPlan.read(campaign.value, diagnostics: &diagnostics)
        plan?.checkMetric(app.validator, diagnostics: &diagnostics)
        if campaign.value.objectValue?["to"] != nil {
            diagnostics.append(
                Diagnostic(
                    .error, .inconsistentAction, at: .root.appending("to"),
                    "an experiment's recipients are the lines after the first (a segment is not supported yet)",
                    hint: "list the segment's devices as recipient lines"))
        }
        guard let plan, !diagnostics.containsErrors else {
            throw .invalid(campaign.locate(diagnostics), what: "the campaign's first line")
        }
        let store = try experimentStore
        timing.throttlePerMinute = timing.throttlePerMinute ?? app.configuration.throttlePerMinute
        let header = plan.variants[plan.index(of: plan.control) ?? 0].draft
        let id = NotificationIntake.newID("c_")
        let compiled = try compile(plan, app: app, id: id, locate: campaign.locate)
        var spec = NotificationSpec(
            id: id, app: app.id, kind: .campaign, topic: app.configuration.topic, pushType: header.pushType.rawValue,
            priority: header.priority, expiration: header.expiration, collapseID: header.collapseID,
            createdAt: created, request: campaign.bytes, sendAt: timing.sendAt,
            throttlePerMinute: timing.throttlePerMinute)
        // A campaign as any other: its sends count toward the app's cap, its recipients over it skipped.
        spec.frequencyCap = app.configuration.frequencyCap
        spec.heldToFrequencyCap = timing.heldToFrequencyCap(campaign: true)
        spec.quietHours = timing.quietHoursHold(campaign: true, app: app.configuration)
        let page = try experimentPage(recipients, app: app, id: id, plan: plan, compiled: compiled, timing: timing)
        let experiment = ExperimentRecord(
            campaignID: id, app: app.id, variants: plan.variants.map(\.name), control: plan.control,
            defaultVariant: plan.defaultVariant, metric: plan.metric?.text,
            state: plan.testShare == nil ? .running : .testing,
            decideAfter: plan.decideAfter.map { (timing.sendAt ?? created).addingTimeInterval($0) },
            plannedTrials: plan.plannedTrials)
        let key = idempotencyKey.map {
            IdempotencyKey(key: $0, fingerprint: notifications.fingerprint(app, fingerprinted))
        }
        let result = try storing { () throws(StoreError) in
            try store.enqueue(
                spec, experiment: experiment, deliveries: page.deliveries, recipients: page.recipients,
                idempotency: key, now: notifications.now())
        }
        switch result {
        case .replayed(let first, let same):
            guard same else { throw NotificationIntake.idempotencyConflict() }
            return AcceptedNotification(record: try self.campaign(id: first, app: app.id), warnings: [], replayed: true)
        case .created:
            notifications.metrics.accepted(app.id, page.deliveries.count)
            return AcceptedNotification(record: try self.campaign(id: id, app: app.id), warnings: [], replayed: false)
        }
    }

    func appendExperiment(
        record: NotificationRecord, document: JSONDocument, app: AppRuntime, recipients: RecipientList,
        key: IdempotencyKey?
    ) throws(GatewayError) -> AcceptedNotification {
        var diagnostics: [Diagnostic] = []
        guard let plan = ExperimentPlan.read(document.value, diagnostics: &diagnostics) else {
            throw .invalid(diagnostics, what: "the stored campaign")
        }
        let id = record.spec.id
        let store = try experimentStore
        let compiled = try compile(plan, app: app, id: id, locate: document.locating)
        let timing = SendTiming.read(document.value, campaign: true, now: nil, diagnostics: &diagnostics)
        let page = try experimentPage(recipients, app: app, id: id, plan: plan, compiled: compiled, timing: timing)
        let result = try storing { () throws(StoreError) in
            try store.append(
                campaign: id, deliveries: page.deliveries, recipients: page.recipients, idempotency: key,
                now: notifications.now())
        }
        switch result {
        case nil: throw Self.closed(id)
        case .added(let added)?:
            notifications.metrics.accepted(app.id, added)
            return AcceptedNotification(record: try campaign(id: id, app: app.id), warnings: [], replayed: false)
        case .replayed(let same)?:
            guard same else { throw NotificationIntake.idempotencyConflict() }
            return AcceptedNotification(record: try campaign(id: id, app: app.id), warnings: [], replayed: true)
        }
    }

    /// A page of an experiment's recipients: every line read and rendered in every variant (a bad line, or one
    /// variant over the size limit with its data, refuses the page), then each device placed.
    private func experimentPage(
        _ list: RecipientList, app: AppRuntime, id: String, plan: ExperimentPlan,
        compiled: [NotificationIntake.Compiled], timing: SendTiming
    ) throws(GatewayError) -> (deliveries: [NewDelivery], recipients: [ExperimentRecipient]) {
        let dataPath = JSONPath(components: list.path.components + [.key("data")])
        var shared: [LocalizedPayloads] = []
        // A line without data of its own keeps no payloads (nil): it shares `shared`, one rendering per variant
        // for the page, as a plain campaign's recipients share one.
        var lines: [(token: String?, user: String?, payloads: [LocalizedPayloads]?, data: [UInt8]?)] = []
        lines.reserveCapacity(list.lines.count)
        var users: [String: Int] = [:]
        for (range, line) in list.lines {
            // Without defaults: each variant merges its own `data` under the line's.
            let recipient = try list.recipient(list.body[range], line: line, defaults: [:])
            var payloads: [LocalizedPayloads]?
            if recipient.ownData || shared.isEmpty {
                var rendered: [LocalizedPayloads] = []
                for (index, variant) in plan.variants.enumerated() {
                    let data = variant.draft.data.merging(recipient.data) { $1 }
                    rendered.append(
                        try notifications.renderLanguages(compiled[index], data: data, at: dataPath, line: line))
                }
                if recipient.ownData { payloads = rendered } else { shared = rendered }
            }
            if let user = recipient.user, users[user] == nil { users[user] = line }
            lines.append(
                (
                    recipient.token, recipient.user, payloads,
                    recipient.ownData ? JSONWriter.compact(.object(recipient.data)) : nil
                ))
            guard lines.count <= notifications.maximumRecipients else {
                throw .invalid(
                    [
                        Diagnostic(
                            .error, .valueRange, at: list.path,
                            "more than \(notifications.maximumRecipients) recipients in one page",
                            hint: "send the rest with POST /v1/campaigns/{id}/recipients",
                            location: SourceLocation(line: line, column: 1, offset: 0))
                    ], what: "the recipient list")
            }
        }
        let resolved = try resolve(users: users, list: list, app: app.id)
        var tokens: [String] = []
        tokens.reserveCapacity(lines.count)
        for line in lines {
            if let token = line.token { tokens.append(token) } else { tokens += resolved[line.user ?? ""] ?? [] }
        }
        let localized = compiled.contains { !$0.localized.isEmpty }
        let locales = localized ? try notifications.deviceLocales(app: app.id, tokens: tokens) : [:]
        // Held by quiet hours as another campaign's recipients are (not with `"quiet_hours": false`).
        let quiet = timing.heldByQuietHours(campaign: true) ? app.configuration.quietHours : nil
        let (due, held) = try notifications.dueTimes(
            timing, tokens: tokens, app: app, quiet: quiet, now: notifications.now())
        var matches = compiled.map { LocaleMatch($0.localized.keys) }
        let assignment = plan.assignment(experiment: id)
        var deliveries: [NewDelivery] = []
        deliveries.reserveCapacity(tokens.count)
        // Only the holdout and the waiting get a place row: a test's recipient's delivery names its variant (the
        // store counts it from there and shares the variant's payload), as the hash recomputes it.
        var recipients: [ExperimentRecipient] = []
        // Per recipient: no lookup in a map that is empty (no local time, quiet hours or languages), as a plain
        // campaign's page does.
        func place(_ token: String, payloads: [LocalizedPayloads]?, data: [UInt8]?) {
            guard case .variant(let index) = assignment.place(of: token) else {
                recipients.append(ExperimentRecipient(token: token, variant: nil, phase: .holdout))
                return
            }
            guard assignment.inTestGroup(token) else {
                recipients.append(ExperimentRecipient(token: token, variant: nil, phase: .waiting, data: data))
                return
            }
            let (payload, language) = (payloads ?? shared)[index].chosen(
                for: locales.isEmpty ? nil : locales[token], match: &matches[index])
            deliveries.append(
                NewDelivery(
                    token: token, apnsID: UUIDText.lowercase(APNsNotification.newID()), payload: payload,
                    dueAt: due.isEmpty ? nil : due[token],
                    heldBecause: held.isEmpty || !held.contains(token) ? nil : QuietHours.heldReason,
                    variant: plan.variants[index].name, language: language, personalized: payloads != nil))
        }
        for line in lines {
            if let token = line.token {
                place(token, payloads: line.payloads, data: line.data)
                continue
            }
            for token in resolved[line.user ?? ""] ?? [] { place(token, payloads: line.payloads, data: line.data) }
        }
        return (deliveries, recipients)
    }
}
