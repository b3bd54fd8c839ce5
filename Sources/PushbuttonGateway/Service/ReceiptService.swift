import Foundation
import Pushbutton
import PushbuttonAPNs
import PushbuttonStore

/// What the receipts route calls: checks and stores the display receipts devices' service extensions report
/// (`POST /v1/apps/{app}/receipts`), as the tap route does taps: the same batch limits, one invalid receipt
/// refuses the whole batch, an event id stored before is a duplicate.
final class ReceiptService: Sendable {
    let store: any GatewayStore
    let now: @Sendable () -> Date

    static let receiptKeys = ["event_id", "token", "notification", "campaign", "variant", "at"]

    init(store: any GatewayStore, now: @escaping @Sendable () -> Date) {
        self.store = store
        self.now = now
    }

    private var receipts: any ReceiptStore {
        get throws(GatewayError) {
            guard let receipts = store as? any ReceiptStore else {
                throw GatewayError(501, "not_supported", "this gateway's store keeps no receipts")
            }
            return receipts
        }
    }

    /// `POST /v1/apps/{app}/receipts`: how many were new, and how many the store had already.
    func record(app: AppRuntime, body: [UInt8]) throws(GatewayError) -> TapBatchResult {
        let document = try IntakeRequest.document(body, what: "the receipts")
        var diagnostics: [Diagnostic] = []
        guard let reader = ConfigReader(document.value, at: .root, what: "the body", diagnostics: &diagnostics) else {
            throw .invalid(document.locating(diagnostics), what: "the receipts")
        }
        reader.unknownKeys(known: ["receipts"], diagnostics: &diagnostics)
        let path = JSONPath.root.appending("receipts")
        guard let values = reader.members["receipts"]?.arrayValue,
            (1...TapService.maximumBatch).contains(values.count)
        else {
            diagnostics.append(
                Diagnostic(
                    .error, reader.members["receipts"] == nil ? .missingField : .valueRange, at: path,
                    "'receipts' must be an array of 1 to \(TapService.maximumBatch) receipts",
                    hint: #"{"receipts": [{"event_id": "…", "token": "…", "notification": "…", "at": "…"}]}"#))
            throw .invalid(document.locating(diagnostics), what: "the receipts")
        }
        var records: [ReceiptRecord] = []
        for (index, value) in values.enumerated() {
            if let record = Self.read(value, at: path.appending(index), app: app.id, diagnostics: &diagnostics) {
                records.append(record)
            }
        }
        guard !diagnostics.containsErrors else { throw .invalid(document.locating(diagnostics), what: "the receipts") }
        let receipts = try receipts
        return try storing { () throws(StoreError) in try receipts.record(receipts: records, now: now()) }
    }

    /// One receipt, or `nil` with its diagnostics.
    static func read(
        _ value: JSONValue, at path: JSONPath, app: String, diagnostics: inout [Diagnostic]
    ) -> ReceiptRecord? {
        let before = diagnostics.count { $0.severity == .error }
        guard let receipt = ConfigReader(value, at: path, what: "a receipt", diagnostics: &diagnostics) else {
            return nil
        }
        receipt.unknownKeys(known: receiptKeys, diagnostics: &diagnostics)
        func fail(_ key: String, _ code: Diagnostic.Code, _ message: String, hint: String? = nil) {
            diagnostics.append(Diagnostic(.error, code, at: path.appending(key), message, hint: hint))
        }
        func identifier(_ key: String, required: Bool = true) -> String? {
            if receipt.members[key] == .null, !required { return nil }
            guard let text = receipt.string(key, required: required, diagnostics: &diagnostics) else { return nil }
            if text.count > TapService.maximumIdentifierLength {
                fail(key, .valueRange, "'\(key)' is longer than \(TapService.maximumIdentifierLength) characters")
            }
            return text
        }
        let eventID = identifier("event_id")
        let token = receipt.string("token", required: true, diagnostics: &diagnostics)
        if let token, (try? DeviceToken(token)) == nil {
            fail(
                "token", "invalid-token", "'token' is not 64 to \(DeviceToken.maximumDigits) hexadecimal digits",
                hint: "the APNs device token, hex")
        }
        let notification = identifier("notification")
        let campaign = identifier("campaign", required: false)
        let variant = identifier("variant", required: false)
        var at: Date?
        if let text = receipt.string("at", required: true, diagnostics: &diagnostics) {
            at = RFC3339.date(text)
            if at == nil {
                fail("at", .typeMismatch, "'at' is not an RFC 3339 time", hint: "e.g. 2026-12-01T10:45:00.250Z")
            }
        }
        guard diagnostics.count(where: { $0.severity == .error }) == before, let eventID, let token, let notification,
            let at
        else { return nil }
        return ReceiptRecord(
            app: app, eventID: eventID, token: token.lowercased(), notificationID: notification, campaignID: campaign,
            variant: variant, receivedAt: at)
    }

    /// How many of the scope's notifications devices reported received; 0 for a store that keeps no receipts.
    func received(_ query: StatsQuery) throws(GatewayError) -> Int {
        guard let receipts = store as? any ReceiptStore else { return 0 }
        return try storing { () throws(StoreError) in try receipts.receivedCount(query) }
    }
}
