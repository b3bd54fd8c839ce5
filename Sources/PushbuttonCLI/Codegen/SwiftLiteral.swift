/// Spelling values as Swift source.
enum SwiftLiteral {
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
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
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
        if name.isEmpty || name.first!.isNumber { name = prefix + name.prefix(1).uppercased() + name.dropFirst() }
        return name
    }

    /// `name`, in backticks when it is a keyword.
    static func escaped(_ name: String) -> String {
        keywords.contains(name) ? "`\(name)`" : name
    }
}
