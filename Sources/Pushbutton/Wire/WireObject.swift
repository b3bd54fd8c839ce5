/// Reads the members of one JSON object of a wire message (``TapEvent``, ``DeviceRegistrationRequest``), recording
/// a diagnostic with the member's path for each missing or mistyped one, so one pass reports every problem.
///
/// The gateway's configuration reader (`ConfigReader`) reads through it too, so a device's mistake and a setting's
/// read the same in a 422 whichever layer found it. Unknown members are not this reader's business: the codecs
/// tolerate them, the gateway refuses them.
package struct WireObject {
    package let members: [String: JSONValue]
    package let path: JSONPath

    package init(members: [String: JSONValue], path: JSONPath) {
        self.members = members
        self.path = path
    }

    /// A non-empty string; `nil` (and a diagnostic) when present with another type or empty, or absent and required.
    package func string(_ key: String, required: Bool = false, diagnostics: inout [Diagnostic]) -> String? {
        guard let value = members[key] else {
            if required { missing(key, "a string", &diagnostics) }
            return nil
        }
        guard let text = value.stringValue, !text.isEmpty else {
            diagnostics.append(
                Diagnostic(
                    .error, .typeMismatch, at: path.appending(key),
                    "'\(key)' must be a non-empty string, not \(value.typeDescription)"))
            return nil
        }
        return text
    }

    /// A string that may also be given as `null` (or left out): `nil` then, without a diagnostic.
    package func optionalString(_ key: String, diagnostics: inout [Diagnostic]) -> String? {
        if members[key] == .null { return nil }
        return string(key, diagnostics: &diagnostics)
    }

    /// `true` or `false`; `nil` when absent (no diagnostic) or of another type (a diagnostic).
    package func bool(_ key: String, diagnostics: inout [Diagnostic]) -> Bool? {
        guard let value = members[key] else { return nil }
        guard let flag = value.boolValue else {
            diagnostics.append(
                Diagnostic(
                    .error, .typeMismatch, at: path.appending(key),
                    "'\(key)' must be true or false, not \(value.typeDescription)"))
            return nil
        }
        return flag
    }

    /// An array of strings; an array longer than `maximumCount` is refused before its elements are read.
    package func strings(_ key: String, maximumCount: Int, diagnostics: inout [Diagnostic]) -> [String]? {
        guard let value = members[key] else { return nil }
        guard let array = value.arrayValue else {
            diagnostics.append(
                Diagnostic(
                    .error, .typeMismatch, at: path.appending(key),
                    "'\(key)' must be an array of strings, not \(value.typeDescription)"))
            return nil
        }
        guard array.count <= maximumCount else {
            diagnostics.append(
                Diagnostic(
                    .error, .valueRange, at: path.appending(key),
                    "'\(key)' has \(array.count) elements, more than the limit of \(maximumCount)"))
            return nil
        }
        var result: [String] = []
        for (index, element) in array.enumerated() {
            guard let text = element.stringValue else {
                diagnostics.append(
                    Diagnostic(
                        .error, .typeMismatch, at: path.appending(key).appending(index),
                        "expected a string, not \(element.typeDescription)"))
                continue
            }
            result.append(text)
        }
        return result
    }

    /// Reports `key` as required, saying what kind of value it takes.
    package func missing(_ key: String, _ kind: String, _ diagnostics: inout [Diagnostic], hint: String? = nil) {
        diagnostics.append(
            Diagnostic(.error, .missingField, at: path.appending(key), "'\(key)' is required (\(kind))", hint: hint))
    }

    /// Reports an error about `key`.
    package func fail(
        _ key: String, _ code: Diagnostic.Code, _ message: String, hint: String? = nil,
        diagnostics: inout [Diagnostic]
    ) {
        diagnostics.append(Diagnostic(.error, code, at: path.appending(key), message, hint: hint))
    }

    /// How many errors `diagnostics` holds, to tell whether a read added any.
    package static func errors(in diagnostics: [Diagnostic]) -> Int { diagnostics.count { $0.severity == .error } }
}
