import Pushbutton

/// Prints diagnostics like a compiler (`file:line:col: error: …`) or as JSON.
enum DiagnosticPrinter {
    /// `file:line:col: severity: path: message [code]` and an indented hint line. Identifiers quoted in
    /// the path, message and hint come from the input: their control characters are shown escaped.
    static func human(_ diagnostic: Diagnostic, file: String) -> String {
        let position = diagnostic.location.map { "\(file):\($0.line):\($0.column)" } ?? file
        var text =
            "\(TerminalText.escaped(position)): \(diagnostic.severity.rawValue): "
            + TerminalText.escaped("\(diagnostic.path): \(diagnostic.message)") + " [\(diagnostic.code)]"
        if let hint = diagnostic.hint { text += "\n    hint: \(TerminalText.escaped(hint))" }
        return text
    }

    /// `2 errors, 1 warning, 0 notes`.
    static func summary(_ diagnostics: [Diagnostic]) -> String {
        let counts = Diagnostic.Severity.allCases.reversed().map { severity in
            let count = diagnostics.filter { $0.severity == severity }.count
            return "\(count) \(severity.rawValue)\(count == 1 ? "" : "s")"
        }
        return counts.joined(separator: ", ")
    }

    static func json(_ diagnostic: Diagnostic, file: String) -> JSONValue {
        var object: [String: JSONValue] = [
            "file": .string(file), "severity": .string(diagnostic.severity.rawValue),
            "code": .string(diagnostic.code.rawValue), "path": .string(diagnostic.path.description),
            "message": .string(diagnostic.message),
        ]
        if let hint = diagnostic.hint { object["hint"] = .string(hint) }
        if let location = diagnostic.location {
            object["line"] = .integer(Int64(location.line))
            object["column"] = .integer(Int64(location.column))
        }
        return .object(object)
    }
}
