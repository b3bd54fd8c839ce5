/// What reading a payload produced: the typed payload (when the text was a JSON object) and the
/// diagnostics about its structure, located in the source text when it was parsed from text.
public struct PayloadParseResult: Sendable {
    /// The typed payload; `nil` when the text was not JSON or not a JSON object.
    public var payload: Payload?
    /// What the reader found (wrong types, malformed JSON), in source order when parsed from text.
    public var diagnostics: [Diagnostic]

    /// Whether the payload was read without errors.
    public var isUsable: Bool { payload != nil && !diagnostics.containsErrors }
}

extension Payload {
    /// Reads any APNs payload from UTF-8 JSON text. Unknown keys are kept; wrong types are reported.
    public static func parse(_ bytes: [UInt8]) -> PayloadParseResult {
        let document: JSONDocument
        do {
            document = try JSONParser.parseDocument(bytes, recordingLocations: true)
        } catch {
            return PayloadParseResult(
                payload: nil,
                diagnostics: [
                    Diagnostic(
                        .error, .jsonSyntax, at: .root, "malformed JSON: \(error.message)",
                        hint: "fix the JSON syntax at this position", location: error.location)
                ])
        }
        var result = parse(document.value)
        result.diagnostics = document.locating(result.diagnostics)
        return result
    }

    /// Reads a payload from a parsed JSON value.
    public static func parse(_ value: JSONValue) -> PayloadParseResult {
        var reader = PayloadReader()
        let payload = reader.readPayload(value)
        return PayloadParseResult(payload: payload, diagnostics: reader.diagnostics)
    }

    /// Reads a payload from JSON bytes, for hot paths: no locations, throws on malformed JSON or a
    /// non-object, and keeps whatever has the wrong type among the extra keys.
    public init(jsonBytes bytes: [UInt8]) throws(JSONParseError) {
        let value = try JSONParser.parse(bytes)
        var reader = PayloadReader()
        guard let payload = reader.readPayload(value) else {
            throw JSONParseError(
                message: "a payload must be a JSON object", location: SourceLocation(line: 1, column: 1, offset: 0))
        }
        self = payload
    }
}
