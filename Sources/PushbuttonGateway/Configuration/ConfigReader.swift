import Pushbutton

/// Reads members of a JSON object, recording a diagnostic (path, what is wrong, how to fix it) for each
/// missing, mistyped or unknown one, so one pass reports every problem.
struct ConfigReader {
    let members: [String: JSONValue]
    let path: JSONPath

    /// `nil` (and a diagnostic) when `value` is not an object.
    init?(_ value: JSONValue?, at path: JSONPath, what: String, diagnostics: inout [Diagnostic]) {
        guard let value else { return nil }
        guard let object = value.objectValue else {
            diagnostics.append(
                Diagnostic(.error, .typeMismatch, at: path, "\(what) must be an object, not \(value.typeDescription)"))
            return nil
        }
        members = object
        self.path = path
    }

    func unknownKeys(known: [String], diagnostics: inout [Diagnostic]) {
        for key in members.keys.sorted() where !known.contains(key) {
            diagnostics.append(
                Diagnostic(
                    .error, .unknownKey, at: path.appending(key), "'\(key)' is not a setting here",
                    hint: Suggestion.didYouMean(key, among: known) ?? "known: \(known.joined(separator: ", "))"))
        }
    }

    /// The readers a configuration shares with the device's wire messages (same checks, same messages).
    private var wire: WireObject { WireObject(members: members, path: path) }

    func string(_ key: String, required: Bool = false, diagnostics: inout [Diagnostic]) -> String? {
        wire.string(key, required: required, diagnostics: &diagnostics)
    }

    /// ``integer(_:in:diagnostics:)`` of `key`, or of its former name `old` (with a warning that names the new
    /// one) when only that is set: a renamed setting keeps working for a while.
    func integer(_ key: String, formerly old: String, in range: ClosedRange<Int>, diagnostics: inout [Diagnostic])
        -> Int?
    {
        if members[old] != nil {
            diagnostics.append(
                Diagnostic(
                    .warning, .deprecatedOption, at: path.appending(old),
                    "'\(old)' is renamed '\(key)'" + (members[key] != nil ? " (both are set: '\(key)' is used)" : ""),
                    hint: "write \(path.appending(key)) instead; the old name will stop working in a later release"))
        }
        return integer(members[key] != nil ? key : old, in: range, diagnostics: &diagnostics)
    }

    func integer(_ key: String, in range: ClosedRange<Int>, diagnostics: inout [Diagnostic]) -> Int? {
        guard let value = members[key] else { return nil }
        guard let number = value.integerValue else {
            diagnostics.append(
                Diagnostic(
                    .error, .typeMismatch, at: path.appending(key),
                    "'\(key)' must be an integer, not \(value.typeDescription)"))
            return nil
        }
        guard range.contains(Int(number)) else {
            diagnostics.append(
                Diagnostic(
                    .error, .valueRange, at: path.appending(key), "'\(key)' is \(number), outside \(range)",
                    hint: "use a value from \(range.lowerBound) to \(range.upperBound)"))
            return nil
        }
        return Int(number)
    }

    func bool(_ key: String, diagnostics: inout [Diagnostic]) -> Bool? {
        wire.bool(key, diagnostics: &diagnostics)
    }

    /// An array of strings; with `maximumCount`, a longer array is refused before its elements are read.
    func strings(_ key: String, maximumCount: Int = .max, diagnostics: inout [Diagnostic]) -> [String]? {
        wire.strings(key, maximumCount: maximumCount, diagnostics: &diagnostics)
    }

    func object(_ key: String, what: String, diagnostics: inout [Diagnostic]) -> ConfigReader? {
        ConfigReader(members[key], at: path.appending(key), what: what, diagnostics: &diagnostics)
    }

    func missing(_ key: String, _ kind: String, _ diagnostics: inout [Diagnostic], hint: String? = nil) {
        wire.missing(key, kind, &diagnostics, hint: hint)
    }
}
