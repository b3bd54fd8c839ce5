import Foundation
import Pushbutton
import PushbuttonAPNs
import PushbuttonStore

/// Creates campaigns, takes more pages of their recipients, reads and cancels them (`/v1/apps/{app}/campaigns`,
/// `/v1/campaigns/{id}…`, and the console's list upload). The recipient lines are read by ``RecipientList``,
/// the one reader for the API and the console. Everything accepted is committed before it is answered.
final class CampaignIntake: Sendable {
    let notifications: NotificationIntake

    init(notifications: NotificationIntake) {
        self.notifications = notifications
    }

    private var store: any GatewayStore { notifications.store }
    private var maximumRecipients: Int { notifications.maximumRecipients }

    /// `POST /v1/apps/{app}/campaigns`: the first line is the campaign (a notification without `to`), each further
    /// line a recipient (``RecipientList``). More pages may follow with ``append(campaign:app:recipients:)``.
    func create(app: AppRuntime, body: [UInt8], idempotencyKey: String?) throws(GatewayError) -> AcceptedNotification {
        let (line, recipients) = RecipientList.campaign(body)
        guard let line else {
            throw .invalid(
                [
                    Diagnostic(
                        .error, .missingField, at: .root, "the body is empty",
                        hint: "line 1: the campaign (payload or category, title, body…); then one recipient per line")
                ], what: "the campaign")
        }
        let campaign = try IntakeRequest(body: Array(body[line]), what: "the campaign's first line")
        return try create(
            app: app, campaign: campaign, recipients: recipients, fingerprinted: body, idempotencyKey: idempotencyKey)
    }

    /// A campaign built as a value (the console's form) with its first page of recipients (the uploaded list).
    func create(app: AppRuntime, campaign: IntakeRequest, recipients: RecipientList, idempotencyKey: String?)
        throws(GatewayError) -> AcceptedNotification
    {
        try create(
            app: app, campaign: campaign, recipients: recipients,
            fingerprinted: campaign.bytes + [0x0A] + recipients.body, idempotencyKey: idempotencyKey)
    }

    private func create(
        app: AppRuntime, campaign: IntakeRequest, recipients: RecipientList, fingerprinted: [UInt8],
        idempotencyKey: String?
    ) throws(GatewayError) -> AcceptedNotification {
        if ExperimentPlan.isExperiment(campaign.value) {
            return try createExperiment(
                app: app, campaign: campaign, recipients: recipients, fingerprinted: fingerprinted,
                idempotencyKey: idempotencyKey)
        }
        var diagnostics: [Diagnostic] = []
        let created = notifications.now()
        var timing = SendTiming.read(campaign.value, campaign: true, now: created, diagnostics: &diagnostics)
        guard let draft = NotificationDraft.read(campaign.value, campaign: true, diagnostics: &diagnostics),
            !diagnostics.containsErrors
        else { throw .invalid(campaign.locate(diagnostics), what: "the campaign's first line") }
        timing.throttlePerMinute = timing.throttlePerMinute ?? app.configuration.throttlePerMinute
        var segment: Segment?
        if let expression = draft.segment {
            segment = try notifications.segments.read(
                expression, at: NotificationIntake.segmentPath, app: app.id, diagnostics: &diagnostics)
            guard !diagnostics.containsErrors else {
                throw .invalid(campaign.locate(diagnostics), what: "the campaign's first line")
            }
        }
        let id = NotificationIntake.newID("c_")
        let compiled = try notifications.compile(
            draft, app: app, notificationID: id, campaignID: id, locate: campaign.locate)
        var spec = NotificationSpec(
            id: id, app: app.id, kind: .campaign, topic: app.configuration.topic, pushType: draft.pushType.rawValue,
            priority: draft.priority, expiration: draft.expiration, collapseID: draft.collapseID,
            createdAt: created, request: campaign.bytes, sendAt: timing.sendAt,
            throttlePerMinute: timing.throttlePerMinute)
        spec.frequencyCap = app.configuration.frequencyCap
        spec.heldToFrequencyCap = timing.heldToFrequencyCap(campaign: true)
        spec.quietHours = timing.quietHoursHold(campaign: true, app: app.configuration)
        // The recipients are checked before anything is stored: a bad line refuses the whole page.
        var page = try check(recipients, app: app.id, compiled: compiled, defaults: draft.data)
        let quiet = timing.heldByQuietHours(campaign: true) ? app.configuration.quietHours : nil
        (page.dueAt, page.held) = try notifications.dueTimes(
            timing, tokens: page.tokens, app: app, quiet: quiet, now: created)
        // The first page goes in with the campaign and its idempotency key, in one transaction.
        let deliveries = page.deliveries
        let key = idempotencyKey.map {
            IdempotencyKey(key: $0, fingerprint: notifications.fingerprint(app, fingerprinted))
        }
        let result = try storing { () throws(StoreError) in
            try store.enqueue(spec, deliveries: deliveries, idempotency: key, now: notifications.now())
        }
        switch result {
        case .replayed(let first, let same):
            guard same else { throw NotificationIntake.idempotencyConflict() }
            return AcceptedNotification(record: try self.campaign(id: first, app: app.id), warnings: [], replayed: true)
        case .created:
            notifications.metrics.accepted(app.id, deliveries.count)
            if let segment {
                let payloads = try notifications.renderLanguages(
                    compiled, data: draft.data, at: .root.appending("data"))
                try addSegment(
                    segment, campaign: id, app: app, payloads: payloads, timing: timing, quiet: quiet,
                    at: spec.createdAt)
            }
            return AcceptedNotification(record: try self.campaign(id: id, app: app.id), warnings: [], replayed: false)
        }
    }

    /// `POST /v1/campaigns/{id}/recipients`: one more page of recipient lines; the campaign as it is now. With
    /// an `Idempotency-Key` the campaign saw before, nothing is stored: the same page is answered as replayed,
    /// another page is a conflict.
    func append(campaign id: String, app: AppRuntime, recipients: RecipientList, idempotencyKey: String? = nil)
        throws(GatewayError) -> AcceptedNotification
    {
        let record = try campaign(id: id, app: app.id)
        let key = idempotencyKey.map {
            IdempotencyKey(key: $0, fingerprint: notifications.fingerprint(app, Array(id.utf8) + [0] + recipients.body))
        }
        guard record.state == "open" || key != nil else { throw Self.closed(id) }
        let document = try IntakeRequest.document(record.spec.request, what: "the stored campaign", checked: false)
        if ExperimentPlan.isExperiment(document.value) {
            return try appendExperiment(record: record, document: document, app: app, recipients: recipients, key: key)
        }
        var diagnostics: [Diagnostic] = []
        guard let draft = NotificationDraft.read(document.value, campaign: true, diagnostics: &diagnostics) else {
            throw .invalid(diagnostics, what: "the stored campaign")
        }
        let compiled = try notifications.compile(
            draft, app: app, notificationID: id, campaignID: id, locate: document.locating)
        var page = try check(recipients, app: app.id, compiled: compiled, defaults: draft.data)
        // A local-time campaign's later pages: each device's time as at creation (passed: at once).
        let timing = SendTiming.read(document.value, campaign: true, now: nil, diagnostics: &diagnostics)
        let quiet = timing.heldByQuietHours(campaign: true) ? app.configuration.quietHours : nil
        (page.dueAt, page.held) = try notifications.dueTimes(
            timing, tokens: page.tokens, app: app, quiet: quiet, now: notifications.now())
        let result = try storeRecipients(page, campaign: id, idempotency: key)
        switch result {
        case .added(let added):
            notifications.metrics.accepted(app.id, added)
            return AcceptedNotification(record: try campaign(id: id, app: app.id), warnings: [], replayed: false)
        case .replayed(let same):
            guard same else { throw NotificationIntake.idempotencyConflict() }
            return AcceptedNotification(record: try campaign(id: id, app: app.id), warnings: [], replayed: true)
        }
    }

    static func closed(_ id: String) -> GatewayError {
        GatewayError(409, "campaign_closed", "campaign \(id) was cancelled; it takes no more recipients")
    }

    /// Reads every recipient line and renders its payload; a bad line refuses the whole page.
    private func check(
        _ list: RecipientList, app: String, compiled: NotificationIntake.Compiled, defaults: [String: JSONValue]
    ) throws(GatewayError) -> RecipientPage {
        var page = RecipientPage()
        var users: [String: Int] = [:]
        var campaignPayloads: LocalizedPayloads?
        let localized = !compiled.localized.isEmpty
        let dataPath = JSONPath(components: list.path.components + [.key("data")])
        page.recipients.reserveCapacity(list.lines.count)
        for (range, line) in list.lines {
            let recipient = try list.recipient(list.body[range], line: line, defaults: defaults)
            // Recipients without data of their own share one rendering (and one buffer) of the campaign's.
            let payloads: LocalizedPayloads
            if !recipient.ownData, let shared = campaignPayloads {
                payloads = shared
            } else {
                payloads = try notifications.renderLanguages(compiled, data: recipient.data, at: dataPath, line: line)
                if !recipient.ownData { campaignPayloads = payloads }
            }
            if let user = recipient.user, users[user] == nil { users[user] = line }
            page.recipients.append((recipient.token, recipient.user, payloads.base, recipient.ownData))
            if localized { page.languages.append(payloads.languages) }
            guard page.recipients.count <= maximumRecipients else {
                throw .invalid(
                    [
                        Diagnostic(
                            .error, .valueRange, at: list.path,
                            "more than \(maximumRecipients) recipients in one page",
                            hint: "send the rest with POST /v1/campaigns/{id}/recipients",
                            location: SourceLocation(line: line, column: 1, offset: 0))
                    ], what: "the recipient list")
            }
        }
        page.users = try resolve(users: users, list: list, app: app)
        if localized {
            let tokens = page.recipients.compactMap(\.token) + page.users.values.joined()
            page.locales = try notifications.deviceLocales(app: app, tokens: tokens)
        }
        return page
    }

    /// Each user a page names (with the line that first named it) resolved to its active devices' tokens; a
    /// user with more than ``devicesPerUser`` refuses the page.
    func resolve(users: [String: Int], list: RecipientList, app: String) throws(GatewayError) -> [String: [String]] {
        var resolved: [String: [String]] = [:]
        for (user, line) in users {
            // One more than the limit tells a user over it, which refuses the page, never cuts the user's devices.
            let tokens = try storing { () throws(StoreError) in
                try store.tokens(app: app, audience: .user(user), limit: Self.devicesPerUser + 1)
            }
            guard tokens.count <= Self.devicesPerUser else {
                throw .invalid(
                    [
                        Diagnostic(
                            .error, .valueRange, at: list.path.appending("user"),
                            "line \(line): the user '\(user)' has more than \(Self.devicesPerUser) active devices, "
                                + "the limit for a campaign line's user; nothing of this page was stored",
                            hint: "list that user's device tokens as lines of their own (one token a line)",
                            location: SourceLocation(line: line, column: 1, offset: 0))
                    ], what: "the recipient list")
            }
            resolved[user] = tokens
        }
        return resolved
    }

    /// Devices a segment's campaign reads and appends at a time: the memory one page takes, whatever the
    /// segment reaches.
    static let segmentPage = 10_000

    /// Appends the active devices `segment` reaches to a new campaign, a page at a time in token order (each
    /// page its own transaction, as `POST …/recipients` pages are), each device with its language's payload.
    /// The segment is evaluated as of `time` (the campaign's creation) on every page, and each device is timed
    /// as a recipient line is (`local_time`, quiet hours). Stops early if the campaign is cancelled meanwhile.
    private func addSegment(
        _ segment: Segment, campaign id: String, app runtime: AppRuntime, payloads: LocalizedPayloads,
        timing: SendTiming, quiet: QuietHours?, at time: Date
    ) throws(GatewayError) {
        let app = runtime.id
        let segments = try notifications.segments.segments
        var after: String?
        var match = LocaleMatch(payloads.languages.keys)
        while true {
            let devices = try storing { () throws(StoreError) in
                try segments.devices(app: app, segment: segment, now: time, after: after, limit: Self.segmentPage)
            }
            guard let last = devices.last else { return }
            after = last.token
            // Each device's own due time (local time, quiet hours) as a list page's, as at the campaign's creation.
            let (due, held) = try notifications.dueTimes(
                timing, tokens: devices.map(\.token), app: runtime, quiet: quiet, now: time)
            let added = try storing { () throws(StoreError) in
                try store.append(campaign: id, now: notifications.now()) { emit throws(StoreError) in
                    for device in devices {
                        let (payload, language) = payloads.chosen(for: device.locale, match: &match)
                        try emit(
                            NewDelivery(
                                token: device.token, apnsID: UUIDText.lowercase(APNsNotification.newID()),
                                payload: payload, dueAt: due[device.token],
                                heldBecause: held.contains(device.token) ? QuietHours.heldReason : nil,
                                language: language))
                    }
                }
            }
            guard let added else { return }  // cancelled
            notifications.metrics.accepted(app, added)
            if devices.count < Self.segmentPage { return }
        }
    }

    /// The most active devices a campaign line's `user` may reach; a user with more refuses the page.
    static let devicesPerUser = 1000

    /// Streams a checked page into the campaign in one transaction, with its idempotency key.
    private func storeRecipients(_ page: RecipientPage, campaign id: String, idempotency: IdempotencyKey?)
        throws(GatewayError) -> PageAppendResult
    {
        let now = notifications.now()
        let result = try storing { () throws(StoreError) -> PageAppendResult? in
            let produce = { (emit: (NewDelivery) throws(StoreError) -> Void) throws(StoreError) in
                try page.forEachDelivery(emit)
            }
            guard let idempotency else {
                return try store.append(campaign: id, now: now, produce: produce).map { .added($0) }
            }
            return try store.append(campaign: id, idempotency: idempotency, now: now, produce: produce)
        }
        guard let result else { throw Self.closed(id) }
        return result
    }

    /// A campaign of `app` (`404` for no campaign, `403` for another app's).
    func campaign(id: String, app: String) throws(GatewayError) -> NotificationRecord {
        guard
            let record = try storing({ () throws(StoreError) in try store.notification(id: id, limit: 0, after: 0) }),
            record.spec.kind == .campaign
        else { throw .notFound("no campaign has the id '\(id)'") }
        guard record.spec.app == app else { throw .forbidden("campaign \(id) belongs to another app") }
        return try notifications.scheduled(record)
    }

    /// Cancels a campaign of `app`: its queued deliveries are dropped; the campaign as it is now.
    func cancel(campaign id: String, app: String) throws(GatewayError) -> NotificationRecord {
        _ = try campaign(id: id, app: app)
        guard
            let cancelled = try storing({ () throws(StoreError) in
                try store.cancel(campaign: id, now: notifications.now())
            })
        else { throw .notFound("no campaign has the id '\(id)'") }
        return try notifications.scheduled(cancelled)
    }
}
