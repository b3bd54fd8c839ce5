import Foundation
import Pushbutton
import PushbuttonAPNs
import PushbuttonStore

/// Experiments after intake (issue 36): the report of `GET /v1/campaigns/{id}/experiment`, and the decision
/// of a test phase — made once across processes (claimed by a conditional UPDATE), stored with its verdict,
/// then the waiting recipients queued with the rolled-out variant, a page at a time, each page marking its
/// recipients rolled out in its own transaction (a crash mid-way is resumed by another claim, sending none
/// twice).
final class ExperimentService: Sendable {
    let campaigns: CampaignIntake
    let apps: [String: AppRuntime]

    init(campaigns: CampaignIntake, apps: [String: AppRuntime]) {
        self.campaigns = campaigns
        self.apps = apps
    }

    /// The store's experiments, or nil when it keeps none.
    var store: (any ExperimentStore)? { campaigns.notifications.store as? any ExperimentStore }

    /// Waiting recipients queued per transaction at the roll-out.
    static let rollOutPage = 1000

    /// A claimed decision or roll-out not renewed for this long is taken over (its process died).
    static let reclaimAfter: TimeInterval = 600

    /// When the next decision is due, if any (the workers' idle wait ends then).
    func nextDecision() -> Date? {
        guard let store else { return nil }
        return (try? store.nextExperimentDecision(reclaimAfter: Self.reclaimAfter)) ?? nil
    }

    /// The experiment of campaign `id` of `app` (`404` for a campaign without one).
    func experiment(campaign id: String, app: String) throws(GatewayError) -> ExperimentRecord {
        _ = try campaigns.campaign(id: id, app: app)
        guard let store,
            let record = try storing({ () throws(StoreError) in try store.experiment(campaign: id) })
        else { throw .notFound("campaign \(id) has no experiment") }
        return record
    }

    /// The experiment's counts per variant and phase.
    func tallies(_ record: ExperimentRecord) throws(GatewayError) -> [ExperimentTally] {
        guard let store else { return [] }
        return try storing { () throws(StoreError) in
            try store.experimentTallies(campaign: record.campaignID, app: record.app)
        }
    }

    /// Makes the decisions that are due at `now` (and early ones whose planned sample is in), and finishes
    /// roll-outs another process left; how many experiments it decided or rolled out. Blocks (store calls).
    @discardableResult
    func decideDue(now: Date) -> Int {
        guard let store else { return 0 }
        var claimed: [ExperimentRecord] = []
        // A read first: the claim is a write transaction, taken only when something is due.
        if let next = nextDecision(), next <= now {
            claimed = (try? store.claimExperimentDecisions(now: now, reclaimAfter: Self.reclaimAfter, limit: 10)) ?? []
        }
        for record in (try? store.experimentsWithPlannedSample()) ?? [] where plannedSampleIsIn(record) {
            if let early = try? store.claimExperimentDecision(campaign: record.campaignID, now: now) {
                claimed.append(early)
            }
        }
        for record in claimed {
            do {
                try decide(record, now: now)
            } catch {
                FileHandle.standardError.write(
                    Data("pushbutton serve: experiment \(record.campaignID): \(error.message)\n".utf8))
            }
        }
        return claimed.count
    }

    /// Whether every variant's test group has its planned deliveries.
    private func plannedSampleIsIn(_ record: ExperimentRecord) -> Bool {
        guard let planned = record.plannedTrials, let tallies = try? tallies(record) else { return false }
        return record.variants.allSatisfy { name in
            (tallies.first { $0.variant == name && $0.phase == .test }?.delivered ?? 0) >= planned
        }
    }

    /// Decides a claimed experiment (unless its decision is already stored), then rolls it out.
    private func decide(_ record: ExperimentRecord, now: Date) throws(GatewayError) {
        guard let store else { return }
        var rolledOut = record.rolledOut
        if record.state == .deciding || rolledOut == nil {
            let decision = Self.decision(record, tallies: try tallies(record))
            try storing { () throws(StoreError) in
                try store.recordDecision(
                    campaign: record.campaignID, rolledOut: decision.rolledOut, verdict: decision.json, now: now)
            }
            rolledOut = decision.rolledOut
        }
        guard let rolledOut else { return }
        try rollOut(record, variant: rolledOut, now: now)
        try storing { () throws(StoreError) in try store.finishRollOut(campaign: record.campaignID, now: now) }
    }

    /// The timing the roll-out's recipients are queued with: the campaign's own (its quiet hours, as the intake
    /// holds a campaign's recipients, unless it says `ignore_quiet_hours`; a `local_time` wall time, sent at once
    /// where it has passed), sent from the decision on: its `send_at` has passed, and a device in its quiet hours
    /// at the decision is held until they end, not sent at night.
    static func rollOutTiming(_ campaign: JSONValue, app: AppRuntime) -> (SendTiming, QuietHours?) {
        var ignored: [Diagnostic] = []
        var timing = SendTiming.read(campaign, campaign: true, now: nil, diagnostics: &ignored)
        timing.sendAt = nil
        return (timing, timing.heldByQuietHours(campaign: true) ? app.configuration.quietHours : nil)
    }

    /// Queues every waiting recipient with `variant`'s notification (rendered with its line's data, in its
    /// device's language, held by quiet hours as ``rollOutTiming(_:app:)`` says), a page at a time.
    private func rollOut(_ record: ExperimentRecord, variant name: String, now: Date) throws(GatewayError) {
        guard let store, let app = apps[record.app] else { return }
        let campaign = try campaigns.campaign(id: record.campaignID, app: record.app)
        let document = try IntakeRequest.document(campaign.spec.request, what: "the stored campaign", checked: false)
        var diagnostics: [Diagnostic] = []
        guard let plan = ExperimentPlan.read(document.value, diagnostics: &diagnostics),
            let index = plan.index(of: name)
        else { throw .invalid(diagnostics, what: "the stored campaign") }
        let variant = plan.variants[index]
        let compiled = try campaigns.notifications.compile(
            variant.draft, app: app, notificationID: record.campaignID, campaignID: record.campaignID,
            variant: variant.name, locate: { $0 })
        let shared = try campaigns.notifications.renderLanguages(compiled, data: variant.draft.data, at: .root)
        var match = LocaleMatch(compiled.localized.keys)
        let (timing, quiet) = Self.rollOutTiming(document.value, app: app)
        var after: String?
        while true {
            let page = try storing { () throws(StoreError) in
                try store.waitingRecipients(campaign: record.campaignID, after: after, limit: Self.rollOutPage)
            }
            guard let last = page.last else { return }
            after = last.token
            let locales =
                compiled.localized.isEmpty
                ? [:] : try campaigns.notifications.deviceLocales(app: app.id, tokens: page.map(\.token))
            let (due, held) = try campaigns.notifications.dueTimes(
                timing, tokens: page.map(\.token), app: app, quiet: quiet, now: now)
            var deliveries: [NewDelivery] = []
            deliveries.reserveCapacity(page.count)
            for recipient in page {
                var payloads = shared
                var personalized = false
                if let data = recipient.data, let own = (try? JSONParser.parse(data))?.objectValue {
                    payloads = try campaigns.notifications.renderLanguages(
                        compiled, data: variant.draft.data.merging(own) { $1 }, at: .root)
                    personalized = true
                }
                let (payload, language) = payloads.chosen(for: locales[recipient.token], match: &match)
                deliveries.append(
                    NewDelivery(
                        token: recipient.token, apnsID: UUIDText.lowercase(APNsNotification.newID()),
                        payload: payload, dueAt: due[recipient.token],
                        heldBecause: held.contains(recipient.token) ? QuietHours.heldReason : nil,
                        language: language, personalized: personalized))
            }
            let added = try storing { () throws(StoreError) in
                try store.rollOut(campaign: record.campaignID, variant: name, deliveries: deliveries, now: now)
            }
            guard let added else { return }  // the campaign was cancelled: nothing more is sent
            campaigns.notifications.metrics.accepted(app.id, added)
            if page.count < Self.rollOutPage { return }
        }
    }
}
