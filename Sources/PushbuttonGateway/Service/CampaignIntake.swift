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
        var diagnostics: [Diagnostic] = []
        guard let draft = NotificationDraft.read(campaign.value, campaign: true, diagnostics: &diagnostics),
            !diagnostics.containsErrors
        else { throw .invalid(campaign.locate(diagnostics), what: "the campaign's first line") }
        let id = NotificationIntake.newID("c_")
        let compiled = try notifications.compile(
            draft, app: app, notificationID: id, campaignID: id, locate: campaign.locate)
        let spec = NotificationSpec(
            id: id, app: app.id, kind: .campaign, topic: app.configuration.topic, pushType: draft.pushType.rawValue,
            priority: draft.priority, expiration: draft.expiration, collapseID: draft.collapseID,
            createdAt: notifications.now(), request: campaign.bytes)
        // The recipients are checked before anything is stored: a bad line refuses the whole page.
        let page = try check(recipients, app: app.id, compiled: compiled, defaults: draft.data)
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
            return AcceptedNotification(record: try self.campaign(id: id, app: app.id), warnings: [], replayed: false)
        }
    }

    /// `POST /v1/campaigns/{id}/recipients`: one more page of recipient lines; the campaign as it is now.
    func append(campaign id: String, app: AppRuntime, recipients: RecipientList) throws(GatewayError)
        -> NotificationRecord
    {
        let record = try campaign(id: id, app: app.id)
        guard record.state == "open" else {
            throw GatewayError(409, "campaign_closed", "campaign \(id) was cancelled; it takes no more recipients")
        }
        let document = try IntakeRequest.document(record.spec.request, what: "the stored campaign")
        var diagnostics: [Diagnostic] = []
        guard let draft = NotificationDraft.read(document.value, campaign: true, diagnostics: &diagnostics) else {
            throw .invalid(diagnostics, what: "the stored campaign")
        }
        let compiled = try notifications.compile(
            draft, app: app, notificationID: id, campaignID: id, locate: document.locating)
        let page = try check(recipients, app: app.id, compiled: compiled, defaults: draft.data)
        let added = try storeRecipients(page, campaign: id)
        notifications.metrics.accepted(app.id, added)
        return try campaign(id: id, app: app.id)
    }

    /// Reads every recipient line and renders its payload; a bad line refuses the whole page.
    private func check(
        _ list: RecipientList, app: String, compiled: NotificationIntake.Compiled, defaults: [String: JSONValue]
    ) throws(GatewayError) -> RecipientPage {
        var page = RecipientPage()
        var users: Set<String> = []
        var campaignPayload: [UInt8]?
        let dataPath = JSONPath(components: list.path.components + [.key("data")])
        page.recipients.reserveCapacity(list.lines.count)
        for (range, line) in list.lines {
            let recipient = try list.recipient(list.body[range], line: line, defaults: defaults)
            // Recipients without data of their own share one rendering (and one buffer) of the campaign's.
            let payload: [UInt8]
            if !recipient.ownData, let shared = campaignPayload {
                payload = shared
            } else {
                payload = try notifications.render(compiled, data: recipient.data, at: dataPath, line: line)
                if !recipient.ownData { campaignPayload = payload }
            }
            if let user = recipient.user { users.insert(user) }
            page.recipients.append((recipient.token, recipient.user, payload))
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
        for user in users {
            page.users[user] = try storing { () throws(StoreError) in
                try store.tokens(app: app, audience: .user(user), limit: 1000)
            }
        }
        return page
    }

    /// Streams a checked page into the campaign in one transaction.
    private func storeRecipients(_ page: RecipientPage, campaign id: String) throws(GatewayError) -> Int {
        let added = try storing { () throws(StoreError) -> Int? in
            try store.append(campaign: id, now: notifications.now()) {
                (emit: (NewDelivery) throws(StoreError) -> Void) throws(StoreError) in
                try page.forEachDelivery(emit)
            }
        }
        guard let added else { throw .notFound("campaign \(id) is not open") }
        return added
    }

    /// A campaign of `app` (`404` for no campaign, `403` for another app's).
    func campaign(id: String, app: String) throws(GatewayError) -> NotificationRecord {
        guard
            let record = try storing({ () throws(StoreError) in try store.notification(id: id, limit: 0, after: 0) }),
            record.spec.kind == .campaign
        else { throw .notFound("no campaign has the id '\(id)'") }
        guard record.spec.app == app else { throw .forbidden("campaign \(id) belongs to another app") }
        return record
    }

    /// Cancels a campaign of `app`: its queued deliveries are dropped; the campaign as it is now.
    func cancel(campaign id: String, app: String) throws(GatewayError) -> NotificationRecord {
        _ = try campaign(id: id, app: app)
        guard
            let cancelled = try storing({ () throws(StoreError) in
                try store.cancel(campaign: id, now: notifications.now())
            })
        else { throw .notFound("no campaign has the id '\(id)'") }
        return cancelled
    }
}
