import Foundation
import Pushbutton
import PushbuttonAPNs
import PushbuttonStore

/// What the tap and stats routes call: checks and stores the taps devices report (`POST /v1/apps/{app}/taps`),
/// and reads a campaign's, a category's or the whole app's outcomes and taps as counts and rates
/// (`GET /v1/apps/{app}/stats`).
final class TapService: Sendable {
    let store: any GatewayStore
    let apps: [String: AppRuntime]
    let now: @Sendable () -> Date
    /// Where the stats' `received` count comes from.
    let receipts: ReceiptService?

    /// Events per request, at most.
    static let maximumBatch = 500
    static let eventKeys = [
        "event_id", "token", "notification", "campaign", "variant", "category", "response", "button", "foreground",
        "latency_ms",
        "reply", "at",
    ]
    /// Longest event id, notification id, campaign, category or button identifier accepted.
    static let maximumIdentifierLength = 200
    static let maximumReplyLength = 4096

    init(
        store: any GatewayStore, apps: [String: AppRuntime], now: @escaping @Sendable () -> Date,
        receipts: ReceiptService? = nil
    ) {
        self.store = store
        self.apps = apps
        self.now = now
        self.receipts = receipts
    }

    private var taps: any TapStore {
        get throws(GatewayError) {
            guard let taps = store as? any TapStore else {
                throw GatewayError(501, "not_supported", "this gateway's store keeps no taps")
            }
            return taps
        }
    }

    // MARK: Taps

    /// `POST /v1/apps/{app}/taps`: every event checked first; one invalid event refuses the whole batch.
    /// How many were new, and how many the store had already.
    func record(app: AppRuntime, body: [UInt8]) throws(GatewayError) -> TapBatchResult {
        let document = try IntakeRequest.document(body, what: "the taps")
        var diagnostics: [Diagnostic] = []
        guard let reader = ConfigReader(document.value, at: .root, what: "the body", diagnostics: &diagnostics) else {
            throw .invalid(document.locating(diagnostics), what: "the taps")
        }
        reader.unknownKeys(known: ["taps"], diagnostics: &diagnostics)
        let path = JSONPath.root.appending("taps")
        guard let events = reader.members["taps"]?.arrayValue, (1...Self.maximumBatch).contains(events.count) else {
            diagnostics.append(
                Diagnostic(
                    .error, reader.members["taps"] == nil ? .missingField : .valueRange, at: path,
                    "'taps' must be an array of 1 to \(Self.maximumBatch) tap events",
                    hint: #"{"taps": [{"event_id": "…", "token": "…", "notification": "…", …}]}; split larger batches"#)
            )
            throw .invalid(document.locating(diagnostics), what: "the taps")
        }
        var records: [TapRecord] = []
        for (index, event) in events.enumerated() {
            if let record = Self.read(event, at: path.appending(index), app: app.id, diagnostics: &diagnostics) {
                records.append(record)
            }
        }
        guard !diagnostics.containsErrors else { throw .invalid(document.locating(diagnostics), what: "the taps") }
        let taps = try taps
        let result = try storing { () throws(StoreError) in try taps.record(taps: records, now: now()) }
        // The stream's tap events, keyed by the device's event id: a retried batch raises none twice.
        if let stream = store as? any EventStreamStore {
            try storing { () throws(StoreError) in try stream.raiseTapEvents(records, now: now()) }
        }
        return result
    }

    /// One tap event, or `nil` with its diagnostics.
    static func read(
        _ value: JSONValue, at path: JSONPath, app: String, diagnostics: inout [Diagnostic]
    ) -> TapRecord? {
        let before = diagnostics.count { $0.severity == .error }
        guard let event = ConfigReader(value, at: path, what: "a tap event", diagnostics: &diagnostics) else {
            return nil
        }
        event.unknownKeys(known: eventKeys, diagnostics: &diagnostics)
        func fail(_ key: String, _ code: Diagnostic.Code, _ message: String, hint: String? = nil) {
            diagnostics.append(Diagnostic(.error, code, at: path.appending(key), message, hint: hint))
        }
        func identifier(_ key: String, required: Bool = true) -> String? {
            if event.members[key] == .null, !required { return nil }
            guard let text = event.string(key, required: required, diagnostics: &diagnostics) else { return nil }
            if text.count > maximumIdentifierLength {
                fail(key, .valueRange, "'\(key)' is longer than \(maximumIdentifierLength) characters")
            }
            return text
        }
        let eventID = identifier("event_id")
        let token = event.string("token", required: true, diagnostics: &diagnostics)
        if let token, (try? DeviceToken(token)) == nil {
            fail(
                "token", "invalid-token", "'token' is not 64 to \(DeviceToken.maximumDigits) hexadecimal digits",
                hint: "the APNs device token, hex")
        }
        let notification = identifier("notification")
        let campaign = identifier("campaign", required: false)
        let variant = identifier("variant", required: false)
        var category: String?
        if let value = event.members["category"] {
            category = value.stringValue
            if category == nil { fail("category", .typeMismatch, "'category' must be a string") }
        } else {
            event.missing("category", "the notification's category identifier", &diagnostics)
        }
        var response: TapRecord.Response?
        if let text = event.string("response", required: true, diagnostics: &diagnostics) {
            response = TapRecord.Response(rawValue: text)
            if response == nil {
                fail("response", .unknownValue, "'response' must be button, body or dismiss, not '\(text)'")
            }
        }
        var button: String?
        if response == .button {
            button = identifier("button")
        } else if response != nil, let value = event.members["button"], value != .null {
            fail(
                "button", .inconsistentAction, "'button' is only for a response of button",
                hint: "leave it out for body taps and dismissals")
        }
        let foreground = event.bool("foreground", diagnostics: &diagnostics)
        if event.members["foreground"] == nil { event.missing("foreground", "true or false", &diagnostics) }
        var latency: Int64?
        if let value = event.members["latency_ms"], value != .null {
            if let number = value.integerValue, number >= 0 {
                latency = number
            } else {
                fail("latency_ms", .typeMismatch, "'latency_ms' must be a whole number of milliseconds ≥ 0, or null")
            }
        }
        var reply: String?
        if let value = event.members["reply"], value != .null {
            reply = value.stringValue
            if reply == nil { fail("reply", .typeMismatch, "'reply' must be a string") }
            if let text = reply, text.count > maximumReplyLength {
                fail("reply", .valueRange, "'reply' is longer than \(maximumReplyLength) characters")
            }
        }
        var at: Date?
        if let text = event.string("at", required: true, diagnostics: &diagnostics) {
            at = RFC3339.date(text)
            if at == nil {
                fail("at", .typeMismatch, "'at' is not an RFC 3339 time", hint: "e.g. 2026-12-01T10:45:00.250Z")
            }
        }
        guard diagnostics.count(where: { $0.severity == .error }) == before, let eventID, let token, let notification,
            let category, let response, let foreground, let at
        else { return nil }
        return TapRecord(
            app: app, eventID: eventID, token: token.lowercased(), notificationID: notification, campaignID: campaign,
            category: category, response: response, button: button, foreground: foreground,
            latencyMilliseconds: latency, reply: reply, respondedAt: at, variant: variant)
    }

    // MARK: Stats

    /// `GET /v1/apps/{app}/stats?campaign=ID | category=ID [&from=RFC3339&to=RFC3339]`.
    func statistics(app: AppRuntime, query: [String: String]) throws(GatewayError) -> TapStats {
        var diagnostics: [Diagnostic] = []
        for key in query.keys.sorted() where !["campaign", "category", "from", "to"].contains(key) {
            diagnostics.append(
                Diagnostic(
                    .error, .unknownKey, at: .root.appending(key), "'\(key)' is not a parameter of the stats",
                    hint: "use campaign or category, and from and to"))
        }
        let campaign = query["campaign"]
        let requestedCategory = query["category"]
        if campaign != nil, requestedCategory != nil {
            diagnostics.append(
                Diagnostic(
                    .error, .inconsistentAction, at: .root.appending("category"),
                    "give campaign or category, not both", hint: "a campaign's stats are of its own category"))
        }
        func time(_ key: String) -> Date? {
            guard let text = query[key] else { return nil }
            guard let date = RFC3339.date(text) else {
                diagnostics.append(
                    Diagnostic(
                        .error, .typeMismatch, at: .root.appending(key), "'\(key)' is not an RFC 3339 time",
                        hint: "e.g. \(key)=2026-12-01T00:00:00Z (percent-encode a '+' offset as %2B)"))
                return nil
            }
            return date
        }
        let from = time("from")
        let to = time("to")
        if let from, let to, to < from {
            diagnostics.append(
                Diagnostic(.error, .valueRange, at: .root.appending("to"), "'to' is before 'from'"))
        }
        guard !diagnostics.containsErrors else { throw .invalid(diagnostics, what: "the stats query") }
        let taps = try taps
        var scope = StatsQuery.Scope.app
        var category = requestedCategory
        if let campaign {
            guard
                let record = try storing({ () throws(StoreError) in
                    try store.notification(id: campaign, limit: 0, after: 0)
                }), record.spec.kind == .campaign
            else { throw .notFound("no campaign has the id '\(campaign)'") }
            guard record.spec.app == app.id else { throw .forbidden("campaign \(campaign) belongs to another app") }
            scope = .notification(campaign)
            category = Self.category(kind: .campaign, request: record.spec.request)
        } else if let requestedCategory {
            // Notes the categories of notifications sent since the last read, a batch at a time.
            while try storing({ () throws(StoreError) in
                try taps.categorize(app: app.id, limit: 1000, Self.category)
            }) == 1000 {}
            scope = .category(requestedCategory)
        }
        let scoped = StatsQuery(app: app.id, scope: scope, from: from, to: to)
        var statistics = try storing { () throws(StoreError) in try taps.statistics(scoped) }
        statistics.received = try receipts?.received(scoped) ?? 0
        let definition = category.flatMap { identifier in
            app.validator.categories.first { $0.identifier == identifier }
        }
        return TapStats(
            statistics, app: app.id, campaign: campaign, category: category, definition: definition,
            from: query["from"] == nil ? nil : from.map(RFC3339.text),
            to: query["to"] == nil ? nil : to.map(RFC3339.text))
    }

    /// The category a stored request names (`category`, or a whole payload's `aps.category`).
    static func category(kind: NotificationSpec.Kind, request: [UInt8]) -> String? {
        guard let value = try? JSONParser.parse(request) else { return nil }
        var diagnostics: [Diagnostic] = []
        guard let draft = NotificationDraft.read(value, campaign: kind == .campaign, diagnostics: &diagnostics) else {
            return nil
        }
        return draft.payload.objectValue?["aps"]?.objectValue?["category"]?.stringValue
    }
}
