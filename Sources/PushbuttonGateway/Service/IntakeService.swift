import Foundation
import Pushbutton
import PushbuttonAPNs
import PushbuttonStore

/// What the routes call: registers devices, and validates, renders and durably queues notifications and
/// campaigns. Everything accepted is committed to the store before the route answers `202`.
final class IntakeService: Sendable {
    let store: any GatewayStore
    let apps: [String: AppRuntime]
    let maximumRecipients: Int
    let metrics: GatewayMetrics
    let now: @Sendable () -> Date

    init(
        store: any GatewayStore, apps: [String: AppRuntime], maximumRecipients: Int, metrics: GatewayMetrics,
        now: @escaping @Sendable () -> Date
    ) {
        self.store = store
        self.apps = apps
        self.maximumRecipients = maximumRecipients
        self.metrics = metrics
        self.now = now
    }

    private func storing<Result>(_ body: () throws(StoreError) -> Result) throws(GatewayError) -> Result {
        do { return try body() } catch { throw .store(error) }
    }

    static func newID(_ prefix: String) -> String {
        prefix + UUIDText.lowercase(APNsNotification.newID()).replacingOccurrences(of: "-", with: "")
    }

    static func document(_ body: [UInt8], what: String) throws(GatewayError) -> JSONDocument {
        do {
            return try JSONParser.parseDocument(body, recordingLocations: true)
        } catch {
            throw .invalid(
                [
                    Diagnostic(
                        .error, .jsonSyntax, at: .root, "malformed JSON: \(error.message)",
                        hint: "fix the JSON syntax at this position", location: error.location)
                ], what: what)
        }
    }

    // MARK: Devices

    static let deviceKeys = ["environment", "locale", "app_version", "user_id", "tags", "registered_at"]

    func register(app: AppRuntime, token: String, body: [UInt8]) throws(GatewayError) -> DeviceRecord {
        var diagnostics: [Diagnostic] = []
        var token = token
        do {
            token = try DeviceToken(token).hex
        } catch {
            diagnostics.append(
                Diagnostic(
                    .error, "invalid-token", at: .root, "the device token in the path: \(error.message)",
                    hint: "PUT /v1/apps/{app}/devices/{64 to 200 hex digits}"))
        }
        let document = try Self.document(body.isEmpty ? Array("{}".utf8) : body, what: "the device")
        guard
            let reader = ConfigReader(document.value, at: .root, what: "the device", diagnostics: &diagnostics)
        else { throw .invalid(document.locating(diagnostics), what: "the device") }
        reader.unknownKeys(known: Self.deviceKeys, diagnostics: &diagnostics)
        let environment = reader.string("environment", diagnostics: &diagnostics) ?? "production"
        if !["production", "sandbox"].contains(environment) {
            diagnostics.append(
                Diagnostic(
                    .error, .unknownValue, at: .root.appending("environment"),
                    "'environment' must be production or sandbox", hint: "development builds use sandbox"))
        }
        var registeredAt = now()
        if let value = reader.members["registered_at"] {
            if let milliseconds = value.integerValue, milliseconds > 0 {
                registeredAt = Date(timeIntervalSince1970: Double(milliseconds) / 1000)
            } else {
                diagnostics.append(
                    Diagnostic(
                        .error, .typeMismatch, at: .root.appending("registered_at"),
                        "'registered_at' must be epoch milliseconds (when the app got its token)"))
            }
        }
        let registration = DeviceRegistration(
            app: app.id, token: token.lowercased(), environment: environment,
            locale: reader.string("locale", diagnostics: &diagnostics),
            appVersion: reader.string("app_version", diagnostics: &diagnostics),
            userID: reader.string("user_id", diagnostics: &diagnostics),
            tags: reader.strings("tags", diagnostics: &diagnostics) ?? [], registeredAt: registeredAt)
        guard !diagnostics.containsErrors else { throw .invalid(document.locating(diagnostics), what: "the device") }
        return try storing { () throws(StoreError) in try store.register(registration, now: now()) }
    }

    func forget(app: AppRuntime, token: String) throws(GatewayError) -> Bool {
        try storing { () throws(StoreError) in try store.forget(app: app.id, token: token.lowercased()) }
    }

    // MARK: Notifications

    /// The compiled payload of a draft, with the notification's ids under the `pushbutton` key.
    struct Compiled {
        var template: PayloadTemplate
        var warnings: [Diagnostic]
    }

    func compile(
        _ draft: NotificationDraft, app: AppRuntime, notificationID: String, campaignID: String?,
        locate: (([Diagnostic]) -> [Diagnostic])
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
        return Compiled(template: template, warnings: mapped.filter { $0.severity == .warning })
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

    private func fingerprint(_ app: AppRuntime, _ body: [UInt8]) -> String {
        Digest.hex(Digest.sha256(Array(app.id.utf8) + [0] + body))
    }

    func send(app: AppRuntime, body: [UInt8], idempotencyKey: String?) throws(GatewayError) -> HTTPResponse {
        let document = try Self.document(body, what: "the notification")
        var diagnostics: [Diagnostic] = []
        guard let draft = NotificationDraft.read(document.value, campaign: false, diagnostics: &diagnostics),
            !diagnostics.containsErrors, let audience = draft.audience
        else { throw .invalid(document.locating(diagnostics), what: "the notification") }
        let id = Self.newID("n_")
        let compiled = try compile(draft, app: app, notificationID: id, campaignID: nil, locate: document.locating)
        let payload = try render(compiled, data: draft.data, at: .root.appending("data"))
        let tokens: [String]
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
            tokens = Array(Set(given)).sorted()
        case .user, .tag:
            tokens = try storing { () throws(StoreError) in
                try store.tokens(app: app.id, audience: audience, limit: maximumRecipients)
            }
        }
        let deliveries = tokens.map {
            NewDelivery(token: $0, apnsID: UUIDText.lowercase(APNsNotification.newID()), payload: payload)
        }
        let spec = NotificationSpec(
            id: id, app: app.id, kind: .notification, topic: app.configuration.topic, pushType: draft.pushType.rawValue,
            priority: draft.priority, expiration: draft.expiration, collapseID: draft.collapseID, createdAt: now(),
            request: body)
        let key = idempotencyKey.map { IdempotencyKey(key: $0, fingerprint: fingerprint(app, body)) }
        let result = try storing { () throws(StoreError) in
            try store.enqueue(spec, deliveries: deliveries, idempotency: key, now: now())
        }
        switch result {
        case .created:
            metrics.accepted(app.id, deliveries.count)
            return try accepted(id: id, warnings: compiled.warnings, replayed: false)
        case .replayed(let first, let same):
            guard same else { throw Self.idempotencyConflict() }
            return try accepted(id: first, warnings: compiled.warnings, replayed: true)
        }
    }

    static func idempotencyConflict() -> GatewayError {
        GatewayError(
            409, "idempotency_conflict",
            "this Idempotency-Key was used with a different request; use a new key for a new request")
    }

    private func accepted(id: String, warnings: [Diagnostic], replayed: Bool) throws(GatewayError) -> HTTPResponse {
        guard
            let record = try storing({ () throws(StoreError) in
                try store.notification(id: id, limit: 1000, after: 0)
            })
        else { throw .notFound("notification \(id) vanished") }
        var object = Rendering.notification(record).objectValue ?? [:]
        if replayed { object["replayed"] = true }
        if !warnings.isEmpty { object["warnings"] = .array(warnings.map(GatewayError.json)) }
        return .json(202, .object(object))
    }

    func notification(id: String, app: String, limit: Int, after: Int64) throws(GatewayError) -> HTTPResponse {
        guard
            let record = try storing({ () throws(StoreError) in
                try store.notification(id: id, limit: limit, after: after)
            })
        else { throw .notFound("no notification or campaign has the id '\(id)'") }
        guard record.spec.app == app else {
            throw .forbidden("notification \(id) belongs to another app; use that app's secret key")
        }
        return .json(200, Rendering.notification(record))
    }

    // MARK: Campaigns

    /// `POST /v1/apps/{app}/campaigns`: the first NDJSON line is the campaign (a notification without `to`),
    /// each further line a recipient. More pages of recipients may follow with ``appendPage(campaign:app:body:)``.
    func createCampaign(app: AppRuntime, body: [UInt8], idempotencyKey: String?) throws(GatewayError) -> HTTPResponse {
        let lines = Self.lines(body)
        guard let (headerRange, _) = lines.first(where: { !$0.range.isEmpty }) else {
            throw .invalid(
                [
                    Diagnostic(
                        .error, .missingField, at: .root, "the body is empty",
                        hint: "line 1: the campaign (payload or category, title, body…); then one recipient per line")
                ], what: "the campaign")
        }
        let header = Array(body[headerRange])
        let document = try Self.document(header, what: "the campaign's first line")
        var diagnostics: [Diagnostic] = []
        guard let draft = NotificationDraft.read(document.value, campaign: true, diagnostics: &diagnostics),
            !diagnostics.containsErrors
        else { throw .invalid(document.locating(diagnostics), what: "the campaign's first line") }
        let id = Self.newID("c_")
        let compiled = try compile(draft, app: app, notificationID: id, campaignID: id, locate: document.locating)
        let spec = NotificationSpec(
            id: id, app: app.id, kind: .campaign, topic: app.configuration.topic, pushType: draft.pushType.rawValue,
            priority: draft.priority, expiration: draft.expiration, collapseID: draft.collapseID, createdAt: now(),
            request: header)
        // The recipients are checked before anything is stored: a bad line refuses the whole page.
        let page = try checkRecipients(
            body, lines, skipFirst: true, app: app.id, compiled: compiled, defaults: draft.data)
        // The first page goes in with the campaign and its idempotency key, in one transaction.
        let deliveries = page.deliveries
        let key = idempotencyKey.map { IdempotencyKey(key: $0, fingerprint: fingerprint(app, body)) }
        let result = try storing { () throws(StoreError) in
            try store.enqueue(spec, deliveries: deliveries, idempotency: key, now: now())
        }
        switch result {
        case .replayed(let first, let same):
            guard same else { throw Self.idempotencyConflict() }
            return try campaign(id: first, app: app.id, status: 202, replayed: true)
        case .created:
            metrics.accepted(app.id, deliveries.count)
            return try campaign(id: id, app: app.id, status: 202, replayed: false)
        }
    }

    /// `POST /v1/campaigns/{id}/recipients`: one more page of recipient lines.
    func appendPage(campaign id: String, app: AppRuntime, body: [UInt8]) throws(GatewayError) -> HTTPResponse {
        guard
            let record = try storing({ () throws(StoreError) in try store.notification(id: id, limit: 0, after: 0) }),
            record.spec.kind == .campaign
        else { throw .notFound("no campaign has the id '\(id)'") }
        guard record.spec.app == app.id else { throw .forbidden("campaign \(id) belongs to another app") }
        guard record.state == "open" else {
            throw GatewayError(409, "campaign_closed", "campaign \(id) was cancelled; it takes no more recipients")
        }
        let document = try Self.document(record.spec.request, what: "the stored campaign")
        var diagnostics: [Diagnostic] = []
        guard let draft = NotificationDraft.read(document.value, campaign: true, diagnostics: &diagnostics) else {
            throw .invalid(diagnostics, what: "the stored campaign")
        }
        let compiled = try compile(draft, app: app, notificationID: id, campaignID: id, locate: document.locating)
        let lines = Self.lines(body)
        let page = try checkRecipients(
            body, lines, skipFirst: false, app: app.id, compiled: compiled, defaults: draft.data)
        let added = try storeRecipients(page, campaign: id)
        metrics.accepted(app.id, added)
        return try campaign(id: id, app: app.id, status: 202, replayed: false)
    }

    /// A recipient line: a token or a user, and its template data.
    private struct RecipientLine {
        var token: String?
        var user: String?
        var data: [String: JSONValue]
        /// Whether the line gave data of its own (else it is the campaign's, and so is its payload).
        var ownData = false
    }

    private func readRecipient(_ text: ArraySlice<UInt8>, line: Int, defaults: [String: JSONValue])
        throws(GatewayError) -> RecipientLine
    {
        func refuse(_ path: JSONPath, _ message: String, hint: String? = nil) -> GatewayError {
            .invalid(
                [
                    Diagnostic(
                        .error, path == .root ? .typeMismatch : "invalid-recipient", at: path,
                        "line \(line): \(message)",
                        hint: hint, location: SourceLocation(line: line, column: 1, offset: 0))
                ], what: "the recipient list")
        }
        if let token = TokenOnlyLine.deviceToken(text) {
            return RecipientLine(token: token, user: nil, data: defaults, ownData: false)
        }
        guard let value = try? JSONParser.parse(Array(text)), let object = value.objectValue else {
            throw refuse(
                .root, "not a JSON object", hint: #"one recipient per line: {"token": "<64 hex>", "data": {…}}"#)
        }
        for key in object.keys where !["token", "user", "data"].contains(key) {
            throw refuse(.root.appending(key), "'\(key)' is not a recipient field", hint: "use token, user and data")
        }
        var data = defaults
        if let given = object["data"] {
            guard let members = given.objectValue else {
                throw refuse(.root.appending("data"), "'data' must be an object")
            }
            data.merge(members) { $1 }
        }
        let ownData = object["data"] != nil
        if let token = object["token"] {
            guard let text = token.stringValue, let checked = try? DeviceToken(text) else {
                throw refuse(
                    .root.appending("token"),
                    "a device token is 64 to \(DeviceToken.maximumDigits) hexadecimal digits (an even number)")
            }
            return RecipientLine(token: checked.hex, user: nil, data: data, ownData: ownData)
        }
        if let user = object["user"]?.stringValue, !user.isEmpty {
            return RecipientLine(token: nil, user: user, data: data, ownData: ownData)
        }
        throw refuse(.root, "a recipient needs a 'token' or a 'user'")
    }

    /// A page's recipients, read, checked and rendered (bounded by the request body's size limit), with the
    /// users it names resolved to their active devices' tokens.
    struct Page {
        var recipients: [(token: String?, user: String?, payload: [UInt8])] = []
        var users: [String: [String]] = [:]

        /// Each recipient (a user's every active device), with a new `apns-id`.
        func forEachDelivery<Failure: Error>(_ body: (NewDelivery) throws(Failure) -> Void) throws(Failure) {
            for recipient in recipients {
                // A token is passed on as it is: no array of one made for each recipient.
                if let token = recipient.token {
                    try body(
                        NewDelivery(
                            token: token, apnsID: UUIDText.lowercase(APNsNotification.newID()),
                            payload: recipient.payload))
                    continue
                }
                for token in users[recipient.user ?? ""] ?? [] {
                    try body(
                        NewDelivery(
                            token: token, apnsID: UUIDText.lowercase(APNsNotification.newID()),
                            payload: recipient.payload))
                }
            }
        }

        var deliveries: [NewDelivery] {
            var all: [NewDelivery] = []
            all.reserveCapacity(recipients.count)
            forEachDelivery { all.append($0) }
            return all
        }
    }

    /// Where the lines of an NDJSON body are in it, numbered from 1, split as `pushbutton send` splits its input
    /// (``LineSplitter/lineRanges(in:)``), without their leading blanks. Ranges, not a copy of each line: a page
    /// of 10,000 recipients made 10,000 arrays only to read each once. The body is already bounded by the
    /// server's limit.
    static func lines(_ body: [UInt8]) -> [(range: Range<Int>, line: Int)] {
        body.withUnsafeBufferPointer { bytes in
            LineSplitter.lineRanges(in: bytes).enumerated().map { index, range in
                var first = range.lowerBound
                while first < range.upperBound, bytes[first] == 0x20 || bytes[first] == 0x09 { first += 1 }
                return (first..<range.upperBound, index + 1)
            }
        }
    }

    /// Reads every recipient line and renders its payload; a bad line refuses the whole page.
    private func checkRecipients(
        _ body: [UInt8], _ lines: [(range: Range<Int>, line: Int)], skipFirst: Bool, app: String,
        compiled: Compiled, defaults: [String: JSONValue]
    ) throws(GatewayError) -> Page {
        var page = Page()
        var users: Set<String> = []
        var campaignPayload: [UInt8]?
        let first = skipFirst ? (lines.first { !$0.range.isEmpty }?.line ?? 0) : 0
        page.recipients.reserveCapacity(lines.count)
        for (range, line) in lines where !range.isEmpty && line != first {
            let recipient = try readRecipient(body[range], line: line, defaults: defaults)
            // Recipients without data of their own share one rendering (and one buffer) of the campaign's.
            let payload: [UInt8]
            if !recipient.ownData, let shared = campaignPayload {
                payload = shared
            } else {
                payload = try render(compiled, data: recipient.data, at: .root.appending("data"), line: line)
                if !recipient.ownData { campaignPayload = payload }
            }
            if let user = recipient.user { users.insert(user) }
            page.recipients.append((recipient.token, recipient.user, payload))
            guard page.recipients.count <= maximumRecipients else {
                throw .invalid(
                    [
                        Diagnostic(
                            .error, .valueRange, at: .root,
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
    private func storeRecipients(_ page: Page, campaign id: String) throws(GatewayError) -> Int {
        let added = try storing { () throws(StoreError) -> Int? in
            try store.append(campaign: id, now: now()) {
                (emit: (NewDelivery) throws(StoreError) -> Void) throws(StoreError) in
                try page.forEachDelivery(emit)
            }
        }
        guard let added else { throw .notFound("campaign \(id) is not open") }
        return added
    }

    func campaign(id: String, app: String, status: Int = 200, replayed: Bool = false) throws(GatewayError)
        -> HTTPResponse
    {
        guard
            let record = try storing({ () throws(StoreError) in try store.notification(id: id, limit: 0, after: 0) }),
            record.spec.kind == .campaign
        else { throw .notFound("no campaign has the id '\(id)'") }
        guard record.spec.app == app else { throw .forbidden("campaign \(id) belongs to another app") }
        var object = Rendering.campaign(record).objectValue ?? [:]
        if replayed { object["replayed"] = true }
        return .json(status, .object(object))
    }

    func cancel(campaign id: String, app: String) throws(GatewayError) -> HTTPResponse {
        guard
            let record = try storing({ () throws(StoreError) in try store.notification(id: id, limit: 0, after: 0) }),
            record.spec.kind == .campaign
        else { throw .notFound("no campaign has the id '\(id)'") }
        guard record.spec.app == app else { throw .forbidden("campaign \(id) belongs to another app") }
        guard let cancelled = try storing({ () throws(StoreError) in try store.cancel(campaign: id, now: now()) })
        else { throw .notFound("no campaign has the id '\(id)'") }
        return .json(200, Rendering.campaign(cancelled))
    }
}
