import Pushbutton

/// A notification request, or a campaign's first line, as the intake reads it: its JSON value, the bytes
/// stored with it (read again by later pages and by the stats), and how to give its diagnostics a line and
/// column. The API parses it from the request body; the console builds the value from its form.
struct IntakeRequest {
    var value: JSONValue
    var bytes: [UInt8]
    var locate: ([Diagnostic]) -> [Diagnostic]

    /// A body the API received: parsed with locations, stored as it was sent.
    init(body: [UInt8], what: String) throws(GatewayError) {
        let document = try Self.document(body, what: what)
        value = document.value
        bytes = body
        locate = document.locating
    }

    /// A request built as a value (the console's form): stored as compact JSON; its diagnostics have no lines.
    init(value: JSONValue) {
        self.value = value
        bytes = JSONWriter.compact(value)
        locate = { $0 }
    }

    /// `body` parsed, or a `422` that says where its JSON syntax is wrong.
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
}
