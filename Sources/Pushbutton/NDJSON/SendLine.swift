/// One line of `pushbutton send`'s NDJSON input: `{"token": "…", "payload": {…}}`, the payload optional.
///
/// The line is read as bytes: invalid UTF-8 anywhere makes it invalid (it is never repaired into U+FFFD),
/// and the payload is written back with ``JSONWriter``, which keeps integers of any size digit for digit.
public struct SendLine: Sendable, Equatable {
    /// The device token, as written on the line (checked later, as a token from a flag is).
    public var token: String
    /// The payload as compact JSON, or `nil` when the line has none.
    public var payload: [UInt8]?

    public init(token: String, payload: [UInt8]?) {
        self.token = token
        self.payload = payload
    }

    /// Why a line is not a notification. `token` is set when the line had one.
    public struct Failure: Error, Sendable, Equatable {
        public var message: String
        public init(_ message: String) { self.message = message }
    }

    /// Reads a line's bytes (without the line break).
    public static func parse(_ bytes: [UInt8]) throws(Failure) -> SendLine {
        let value: JSONValue
        do {
            value = try JSONParser.parse(bytes)
        } catch {
            throw Failure("not valid JSON: \(error.message) at column \(error.location.column)")
        }
        guard let object = value.objectValue, let token = object["token"]?.stringValue else {
            throw Failure("not a JSON object with a \"token\" string")
        }
        return SendLine(token: token, payload: object["payload"].map { JSONWriter.compact($0) })
    }
}
