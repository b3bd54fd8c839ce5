/// Reads the members of one JSON object for the manifest reader, reporting wrong types and unknown keys.
struct ObjectReader {
    let members: [String: JSONValue]
    let path: JSONPath

    /// `nil` (with a type-mismatch error) when `value` is not an object.
    init?(_ value: JSONValue, at path: JSONPath, what: String, diagnostics: inout [Diagnostic]) {
        guard let members = value.objectValue else {
            diagnostics.append(
                Diagnostic(
                    .error, .typeMismatch, at: path, "\(what) must be an object, not \(value.typeDescription)"))
            return nil
        }
        self.members = members
        self.path = path
    }

    func has(_ key: String) -> Bool { members[key] != nil }

    /// Warns about members outside `known`, suggesting the closest known name.
    func reportUnknownKeys(known: [String], in what: String, diagnostics: inout [Diagnostic]) {
        for key in members.keys.sorted() where !known.contains(key) {
            diagnostics.append(
                Diagnostic(
                    .warning, .unknownKey, at: path.appending(key), "unknown member '\(key)' in \(what) is ignored",
                    hint: Suggestion.didYouMean(key, among: known) ?? "known members: \(known.joined(separator: ", "))"
                ))
        }
    }

    func string(_ key: String, required: Bool = false, diagnostics: inout [Diagnostic]) -> String? {
        guard let value = present(key, required: required, diagnostics: &diagnostics) else { return nil }
        guard let string = value.stringValue else {
            diagnostics.append(mismatch(key, expected: "a string", found: value))
            return nil
        }
        return string
    }

    func bool(_ key: String, diagnostics: inout [Diagnostic]) -> Bool? {
        guard let value = members[key] else { return nil }
        guard let bool = value.boolValue else {
            diagnostics.append(mismatch(key, expected: "true or false", found: value))
            return nil
        }
        return bool
    }

    func array(_ key: String, required: Bool = false, diagnostics: inout [Diagnostic]) -> [JSONValue]? {
        guard let value = present(key, required: required, diagnostics: &diagnostics) else { return nil }
        guard let array = value.arrayValue else {
            diagnostics.append(mismatch(key, expected: "an array", found: value))
            return nil
        }
        return array
    }

    /// An array of strings; non-string elements are reported and skipped.
    func strings(_ key: String, diagnostics: inout [Diagnostic]) -> [String]? {
        guard let elements = array(key, diagnostics: &diagnostics) else { return nil }
        var strings: [String] = []
        for (index, element) in elements.enumerated() {
            if let string = element.stringValue {
                strings.append(string)
            } else {
                diagnostics.append(
                    Diagnostic(
                        .error, .typeMismatch, at: path.appending(key).appending(index),
                        "expected a string, found \(element.typeDescription)"))
            }
        }
        return strings
    }

    private func present(_ key: String, required: Bool, diagnostics: inout [Diagnostic]) -> JSONValue? {
        if let value = members[key] { return value }
        if required {
            diagnostics.append(
                Diagnostic(.error, .missingField, at: path.appending(key), "required member '\(key)' is missing"))
        }
        return nil
    }

    private func mismatch(_ key: String, expected: String, found: JSONValue) -> Diagnostic {
        Diagnostic(
            .error, .typeMismatch, at: path.appending(key),
            "'\(key)' must be \(expected), not \(found.typeDescription)")
    }
}
