import Foundation
import Pushbutton
import PushbuttonStore

/// Segments: reading expressions (saved ones resolved in place), counting the devices they reach
/// (`POST /v1/apps/{app}/audience/count`) and the app's saved segments (`/v1/apps/{app}/segments/{name}`).
final class SegmentService: Sendable {
    let store: any GatewayStore
    let now: @Sendable () -> Date

    init(store: any GatewayStore, now: @escaping @Sendable () -> Date) {
        self.store = store
        self.now = now
    }

    /// The store's segment operations (every SQL store has them; a stand-in store may not).
    var segments: any SegmentStore {
        get throws(GatewayError) {
            guard let segments = store as? any SegmentStore else {
                throw GatewayError(501, "not_supported", "this gateway's store cannot evaluate segments")
            }
            return segments
        }
    }

    /// The segment `value` (at `path` of a request) expresses for `app`; diagnostics are added to `diagnostics`.
    /// `saving` is a segment about to be saved: its name reads as its new expression, so one that names itself
    /// (through others too) nests too deep and is refused before it is saved.
    func read(
        _ value: JSONValue, at path: JSONPath, app: String, saving: (name: String, value: JSONValue)? = nil,
        diagnostics: inout [Diagnostic]
    ) throws(GatewayError) -> Segment? {
        let segments = try self.segments
        var failure: StoreError?
        var reader = SegmentExpression { name in
            if let saving, saving.name == name { return saving.value }
            let saved: SavedSegment?
            do throws(StoreError) {
                saved = try segments.savedSegment(app: app, name: name)
            } catch {
                failure = error
                return nil
            }
            return saved.flatMap { try? JSONParser.parse($0.expression) }
        }
        let segment = reader.read(value, at: path, diagnostics: &diagnostics)
        if let failure { throw .store(failure) }
        return segment
    }

    /// `POST /v1/apps/{app}/audience/count` with `{"segment": EXPR}`: how many active devices it reaches.
    func count(app: AppRuntime, body: [UInt8]) throws(GatewayError) -> Int {
        let document = try IntakeRequest.document(body, what: "the audience")
        var diagnostics: [Diagnostic] = []
        let object = document.value.objectValue
        for key in (object?.keys.sorted() ?? []) where key != "segment" {
            diagnostics.append(
                Diagnostic(.error, .unknownKey, at: .root.appending(key), "'\(key)' is not a field of an audience"))
        }
        guard let expression = object?["segment"] else {
            diagnostics.append(
                Diagnostic(
                    .error, .missingField, at: .root.appending("segment"), #"give {"segment": EXPR}"#,
                    hint: #"for example {"segment": {"tag": "beta"}}"#))
            throw .invalid(document.locating(diagnostics), what: "the audience")
        }
        let segment = try read(expression, at: .root.appending("segment"), app: app.id, diagnostics: &diagnostics)
        guard let segment, !diagnostics.containsErrors else {
            throw .invalid(document.locating(diagnostics), what: "the audience")
        }
        let segments = try self.segments
        return try storing { () throws(StoreError) in
            try segments.countDevices(app: app.id, segment: segment, now: now())
        }
    }

    /// `PUT /v1/apps/{app}/segments/{name}` with the expression as the body (`{"tag": "beta"}`), checked
    /// before it is saved.
    func save(app: AppRuntime, name: String, body: [UInt8]) throws(GatewayError) -> SavedSegment {
        try Self.checkName(name)
        let document = try IntakeRequest.document(body, what: "the segment")
        var diagnostics: [Diagnostic] = []
        guard
            try read(
                document.value, at: .root, app: app.id, saving: (name, document.value), diagnostics: &diagnostics)
                != nil,
            !diagnostics.containsErrors
        else { throw .invalid(document.locating(diagnostics), what: "the segment") }
        let saved = SavedSegment(
            name: name, expression: String(decoding: JSONWriter.compact(document.value), as: UTF8.self),
            updatedAt: now())
        let segments = try self.segments
        try storing { () throws(StoreError) in try segments.saveSegment(app: app.id, saved) }
        return saved
    }

    /// A saved segment (`404` for none).
    func saved(app: AppRuntime, name: String) throws(GatewayError) -> SavedSegment {
        let segments = try self.segments
        guard let saved = try storing({ () throws(StoreError) in try segments.savedSegment(app: app.id, name: name) })
        else { throw .notFound("no segment is saved as '\(name)'") }
        return saved
    }

    /// The app's saved segments.
    func list(app: AppRuntime) throws(GatewayError) -> [SavedSegment] {
        let segments = try self.segments
        return try storing { () throws(StoreError) in try segments.savedSegments(app: app.id) }
    }

    /// Deletes a saved segment (`404` for none). Campaigns already created keep the devices it reached then.
    func delete(app: AppRuntime, name: String) throws(GatewayError) {
        let segments = try self.segments
        guard try storing({ () throws(StoreError) in try segments.deleteSegment(app: app.id, name: name) }) else {
            throw .notFound("no segment is saved as '\(name)'")
        }
    }

    /// A segment's name: 1 to 64 letters, digits, `.`, `_` and `-` (it is a path segment of the API).
    static func checkName(_ name: String) throws(GatewayError) {
        let allowed = name.utf8.allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39) || ((byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A) || byte == 0x2E
                || byte == 0x5F || byte == 0x2D
        }
        guard (1...64).contains(name.utf8.count), allowed else {
            throw .invalid(
                [
                    Diagnostic(
                        .error, .valueRange, at: .root, "a segment's name is 1 to 64 letters, digits, '.', '_' or '-'")
                ], what: "the segment's name")
        }
    }
}
