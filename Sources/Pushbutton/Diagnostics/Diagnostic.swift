/// One finding about a manifest or a payload: what is wrong, where, and how to fix it.
///
/// Diagnostics are values, never traps: every reader and rule in Pushbutton reports through them.
public struct Diagnostic: Sendable, Hashable, CustomStringConvertible {
    /// How serious a finding is. Only errors make a document unusable.
    public enum Severity: String, Sendable, Hashable, Comparable, CaseIterable {
        case note
        case warning
        case error

        private var rank: Int {
            switch self {
            case .note: return 0
            case .warning: return 1
            case .error: return 2
            }
        }

        /// Orders by seriousness: a note is less than a warning, a warning less than an error.
        public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs.rank < rhs.rank }
    }

    /// How serious the finding is; any `.error` makes the document unusable.
    public var severity: Severity
    /// A stable, machine-readable name of the rule, e.g. `unknown-key`.
    public var code: Code
    /// The JSON path the finding is about.
    public var path: JSONPath
    /// What is wrong, in one sentence.
    public var message: String
    /// How to fix it, when there is something to say.
    public var hint: String?
    /// Where in the source text, when the document was parsed from text.
    public var location: SourceLocation?

    /// Creates a finding of `severity` under `code` about the value at `path`.
    ///
    /// - Parameters:
    ///   - message: What is wrong, in one sentence without a trailing period.
    ///   - hint: How to fix it, when there is something useful to say.
    ///   - location: Where in the source text, when the document was parsed from text.
    public init(
        _ severity: Severity, _ code: Code, at path: JSONPath, _ message: String, hint: String? = nil,
        location: SourceLocation? = nil
    ) {
        self.severity = severity
        self.code = code
        self.path = path
        self.message = message
        self.hint = hint
        self.location = location
    }

    /// One line for terminals and logs: `severity: path: message [code] (hint: …)`.
    public var description: String {
        var text = "\(severity.rawValue): \(path): \(message) [\(code)]"
        if let hint { text += " (hint: \(hint))" }
        return text
    }
}

extension Diagnostic {
    /// The rule a diagnostic comes from. Extensible: any string is a code; the known ones are constants.
    public struct Code: RawRepresentable, Sendable, Hashable, CustomStringConvertible, ExpressibleByStringLiteral {
        /// The code as it appears in output and JSON, e.g. `unknown-key`.
        public var rawValue: String
        /// Wraps any string as a code; codes Pushbutton does not define are allowed.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// Writes a code as a string literal, as the constants in `Diagnostic+Codes.swift` do.
        public init(stringLiteral value: String) { self.rawValue = value }
        /// The raw value, so a code prints as `unknown-key`.
        public var description: String { rawValue }
    }
}

extension Sequence<Diagnostic> {
    /// Whether any diagnostic is an error.
    public var containsErrors: Bool { contains { $0.severity == .error } }

    /// Errors first, then by source position, then by path, so output is stable.
    public func sortedForDisplay() -> [Diagnostic] {
        sorted { lhs, rhs in
            let left = lhs.location?.offset ?? Int.max
            let right = rhs.location?.offset ?? Int.max
            if left != right { return left < right }
            if lhs.path != rhs.path { return lhs.path < rhs.path }
            if lhs.severity != rhs.severity { return lhs.severity > rhs.severity }
            return lhs.message < rhs.message
        }
    }
}
