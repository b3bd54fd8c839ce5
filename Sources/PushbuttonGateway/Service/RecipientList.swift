import Foundation
import Pushbutton
import PushbuttonAPNs

/// A campaign's recipients, one a line: the one reader of the API's campaign pages (`POST …/campaigns`,
/// `POST /v1/campaigns/{id}/recipients`) and of the list the console uploads.
///
/// The rule, the same for both: a line is blank, a comment (its first character other than a space or tab is
/// `#`), a device token alone (64 to 200 hex digits, an even number; spaces and angle brackets, as older APIs
/// print tokens, are removed), or a JSON object `{"token": "<hex>"}` or `{"user": "<id>"}` with an optional
/// `"data": {…}` for the payload's placeholders. Lines end with LF or CRLF; leading spaces and tabs are ignored.
/// Line numbers in the diagnostics count every line of the body.
struct RecipientList {
    /// The bytes the lines are in: a page's body, or the uploaded file.
    let body: [UInt8]
    /// The recipient lines (no blank, comment or campaign line), as ranges of `body`, numbered from 1.
    let lines: [(range: Range<Int>, line: Int)]
    /// Where the diagnostics point: the request's root for the API, the upload's form field for the console.
    let path: JSONPath

    /// Every recipient line of `body`.
    init(_ body: [UInt8], path: JSONPath = .root) {
        self.init(body, lines: Self.lines(body).filter { Self.isRecipient(body[$0.range]) }, path: path)
    }

    private init(_ body: [UInt8], lines: [(range: Range<Int>, line: Int)], path: JSONPath) {
        self.body = body
        self.lines = lines
        self.path = path
    }

    /// A campaign's body: its first line that is neither blank nor a comment is the campaign, the rest its
    /// first page of recipients. The campaign's range is nil when the body has no such line.
    static func campaign(_ body: [UInt8]) -> (campaign: Range<Int>?, recipients: RecipientList) {
        var content = lines(body).filter { isRecipient(body[$0.range]) }
        let campaign = content.isEmpty ? nil : content.removeFirst().range
        return (campaign, RecipientList(body, lines: content, path: .root))
    }

    /// Where the lines of a body are in it, numbered from 1, split as `pushbutton send` splits its input
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

    /// Whether a line (leading blanks already dropped) names a recipient: not blank, not a `#` comment.
    static func isRecipient(_ line: ArraySlice<UInt8>) -> Bool {
        guard let first = line.first else { return false }
        return first != 0x23 && !line.allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }
    }

    /// One recipient: a token or a user, and its template data.
    struct Recipient {
        var token: String?
        var user: String?
        var data: [String: JSONValue]
        /// Whether the line gave data of its own (else it is the campaign's, and so is its payload).
        var ownData = false
    }

    /// Reads one recipient line; `defaults` is the campaign's template data.
    func recipient(_ text: ArraySlice<UInt8>, line: Int, defaults: [String: JSONValue]) throws(GatewayError)
        -> Recipient
    {
        func refuse(_ relative: JSONPath, _ message: String, hint: String? = nil) -> GatewayError {
            let at = JSONPath(components: path.components + relative.components)
            return .invalid(
                [
                    Diagnostic(
                        .error, relative == .root ? .typeMismatch : "invalid-recipient", at: at,
                        "line \(line): \(message)",
                        hint: hint, location: SourceLocation(line: line, column: 1, offset: 0))
                ], what: "the recipient list")
        }
        if let token = TokenOnlyLine.deviceToken(text) {
            return Recipient(token: token, user: nil, data: defaults, ownData: false)
        }
        if text.first != 0x7B {  // not `{`: a device token alone, or nothing this list takes
            let trimmed = String(decoding: text, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            guard let token = try? DeviceToken(trimmed) else {
                throw refuse(
                    .root, "not a JSON object or a device token ('\(DeviceToken.redact(trimmed))')",
                    hint: #"one recipient per line: a device token (64 hex digits), or {"token": "<hex>", "data": {…}}"#
                )
            }
            return Recipient(token: token.hex, user: nil, data: defaults, ownData: false)
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
            return Recipient(token: checked.hex, user: nil, data: data, ownData: ownData)
        }
        if let user = object["user"]?.stringValue, !user.isEmpty {
            return Recipient(token: nil, user: user, data: data, ownData: ownData)
        }
        throw refuse(.root, "a recipient needs a 'token' or a 'user'")
    }
}
