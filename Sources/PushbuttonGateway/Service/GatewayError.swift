import Foundation
import Pushbutton
import PushbuttonStore

/// Why a request was refused: an HTTP status, a stable code, a sentence, and the diagnostics (path, code,
/// hint, line and column) when the body was at fault, in the same form as `pushbutton lint --format json`.
public struct GatewayError: Error, Sendable {
    public var status: Int
    public var code: String
    public var message: String
    public var diagnostics: [Diagnostic]
    /// Seconds after which the same request may succeed (a `429` or `503`): the answer's `retry-after`.
    public var retryAfter: Int?

    public init(
        _ status: Int, _ code: String, _ message: String, diagnostics: [Diagnostic] = [], retryAfter: Int? = nil
    ) {
        self.status = status
        self.code = code
        self.message = message
        self.diagnostics = diagnostics
        self.retryAfter = retryAfter
    }

    static func unauthorized() -> GatewayError {
        GatewayError(
            401, "unauthorized", "an API key is required: send it as 'Authorization: Bearer KEY'")
    }

    static func forbidden(_ message: String) -> GatewayError { GatewayError(403, "forbidden", message) }

    static func notFound(_ message: String) -> GatewayError { GatewayError(404, "not_found", message) }

    /// A `422` with the first ``InputLimits/diagnosticsPerAnswer`` diagnostics (and one counting the rest):
    /// a body of a million bad elements gets an answer of a hundred.
    static func invalid(_ diagnostics: [Diagnostic], what: String = "the request") -> GatewayError {
        let errors = diagnostics.count { $0.severity == .error }
        let first = diagnostics.first { $0.severity == .error }.map { ": \($0.path): \($0.message)" } ?? ""
        return GatewayError(
            422, "invalid_request", "\(what) has \(errors) error(s)\(first); nothing was queued",
            diagnostics: InputLimits.capped(diagnostics))
    }

    /// A store failure as clients see it: 503, "the store is unavailable". The store's own message (SQL, table
    /// names, a database's host) goes to the log only.
    static func store(_ error: StoreError) -> GatewayError {
        log(error)
        return GatewayError(503, "store_unavailable", storeUnavailable)
    }

    /// What a client is told when the store fails.
    static let storeUnavailable = "the store is unavailable"
    /// The same on a console page, where the operator reads it: the log has the store's message.
    static let storeUnavailableForPeople = "The store is unavailable: the gateway's log says why."

    /// Writes a store failure to standard error (the gateway's log), as the workers do theirs.
    static func log(_ error: StoreError) {
        FileHandle.standardError.write(Data("pushbutton serve: the store failed [\(error.code)]: \(error)\n".utf8))
    }

    /// The JSON answer: `{"error": {"code", "message", "diagnostics": [...]}}`, with `retry-after` when set.
    var response: HTTPResponse {
        var response = HTTPResponse.json(
            status,
            [
                "error": .object([
                    "code": .string(code), "message": .string(message),
                    "diagnostics": .array(diagnostics.map(Self.json)),
                ])
            ])
        if let retryAfter { response.headers.append(("retry-after", String(retryAfter))) }
        return response
    }

    static func json(_ diagnostic: Diagnostic) -> JSONValue {
        var object: [String: JSONValue] = [
            "severity": .string(diagnostic.severity.rawValue), "code": .string(diagnostic.code.rawValue),
            "path": .string(diagnostic.path.description), "message": .string(diagnostic.message),
        ]
        if let hint = diagnostic.hint { object["hint"] = .string(hint) }
        if let location = diagnostic.location {
            object["line"] = .integer(Int64(location.line))
            object["column"] = .integer(Int64(location.column))
        }
        return .object(object)
    }
}
