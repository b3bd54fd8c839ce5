/// Spelling values as Swift source: every text from a manifest goes through one of these, so none can
/// end a string literal or a comment and add code of its own.
enum SwiftLiteral {
    /// Text for a `//` or `///` comment: on one line whatever it holds. Control characters and line or
    /// paragraph separators are shown as escapes (`\n`, `\u{1B}`), so a newline cannot start a line of code.
    static func comment(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where needsEscape(scalar): result += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// C0 and C1 controls, DEL, and the Unicode line and paragraph separators.
    static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar.value == 0x2028 || scalar.value == 0x2029
    }

    /// A string literal with `\`, `"` and control characters escaped.
    static func string(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": result += "\\\\"
            case "\"": result += "\\\""
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where needsEscape(scalar):
                result += "\\u{\(String(scalar.value, radix: 16))}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }

    static let keywords: Set<String> = [
        "associatedtype", "class", "deinit", "enum", "extension", "fileprivate", "func", "import", "init", "inout",
        "internal", "let", "open", "operator", "private", "protocol", "public", "rethrows", "static", "struct",
        "subscript", "typealias", "var", "break", "case", "continue", "default", "defer", "do", "else",
        "fallthrough", "for", "guard", "if", "in", "repeat", "return", "switch", "where", "while", "as", "Any",
        "catch", "false", "is", "nil", "super", "self", "Self", "throw", "throws", "true", "try", "await", "async",
        "Type", "Protocol", "some", "any",
    ]

    /// A lowerCamelCase Swift name for an identifier: `friend_request` → `friendRequest`,
    /// `com.acme.Like` → `comAcmeLike`; a name starting with a digit gets `prefix` in front.
    static func name(for identifier: String, prefix: String) -> String {
        let words = identifier.split(whereSeparator: { !($0.isASCII && ($0.isLetter || $0.isNumber)) })
        var name = ""
        for word in words {
            if name.isEmpty {
                name = word.prefix(1).lowercased() + word.dropFirst()
            } else {
                name += word.prefix(1).uppercased() + word.dropFirst()
            }
        }
        if name.first?.isNumber ?? true { name = prefix + name.prefix(1).uppercased() + name.dropFirst() }
        return name
    }

    /// `name`, in backticks when it is a keyword.
    static func escaped(_ name: String) -> String {
        keywords.contains(name) ? "`\(name)`" : name
    }
}
