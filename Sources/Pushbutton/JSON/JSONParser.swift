/// A strict RFC 8259 JSON parser over UTF-8 bytes.
///
/// It never traps: malformed input, invalid UTF-8, lone surrogate escapes, numbers out of range and
/// nesting deeper than ``maximumDepth`` are reported as ``JSONParseError`` with a line and column.
/// Recording locations (for diagnostics) is optional because it costs an allocation per value.
public struct JSONParser {
    /// Deeper nesting is refused rather than risking the stack.
    public static let maximumDepth = 512

    /// Parses `text` into a value.
    public static func parse(_ text: String) throws(JSONParseError) -> JSONValue {
        try parseDocument(Array(text.utf8), recordingLocations: false).value
    }

    /// Parses UTF-8 `bytes` into a value.
    public static func parse(_ bytes: [UInt8]) throws(JSONParseError) -> JSONValue {
        try parseDocument(bytes, recordingLocations: false).value
    }

    /// Parses UTF-8 `bytes`, optionally recording where every value and member name stood.
    public static func parseDocument(_ bytes: [UInt8], recordingLocations: Bool) throws(JSONParseError)
        -> JSONDocument
    {
        var parser = JSONParser(bytes: bytes, recordingLocations: recordingLocations)
        return try parser.parseWholeDocument()
    }

    private let bytes: [UInt8]
    private let recordingLocations: Bool
    private var position = 0
    private var line = 1
    private var lineStart = 0
    private var depth = 0
    private var path: [JSONPath.Component] = []
    private var valueLocations: [JSONPath: SourceLocation] = [:]
    private var keyLocations: [JSONPath: SourceLocation] = [:]
    private var duplicateKeys: [(path: JSONPath, location: SourceLocation)] = []

    private init(bytes: [UInt8], recordingLocations: Bool) {
        self.bytes = bytes
        self.recordingLocations = recordingLocations
    }

    private var location: SourceLocation {
        SourceLocation(line: line, column: position - lineStart + 1, offset: position)
    }

    private mutating func parseWholeDocument() throws(JSONParseError) -> JSONDocument {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
            position = 3
            lineStart = 3
        }
        skipWhitespace()
        guard position < bytes.count else { throw failure("the document is empty; expected a JSON value") }
        let value = try parseValue()
        skipWhitespace()
        guard position == bytes.count else {
            throw failure("unexpected \(describeCurrentByte()) after the JSON value")
        }
        return JSONDocument(
            value: value, valueLocations: valueLocations, keyLocations: keyLocations, duplicateKeys: duplicateKeys)
    }

    private func failure(_ message: String) -> JSONParseError {
        JSONParseError(message: message, location: location)
    }

    private func describeCurrentByte() -> String {
        guard position < bytes.count else { return "end of input" }
        let byte = bytes[position]
        if byte >= 0x21 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        return "byte 0x\(String(byte, radix: 16, uppercase: true))"
    }

    private mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x09, 0x0D:
                position += 1
            case 0x0A:
                position += 1
                line += 1
                lineStart = position
            default:
                return
            }
        }
    }

    private mutating func parseValue() throws(JSONParseError) -> JSONValue {
        if recordingLocations { valueLocations[JSONPath(components: path)] = location }
        guard position < bytes.count else { throw failure("unexpected end of input; expected a JSON value") }
        switch bytes[position] {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): return try parseLiteral("true", .bool(true))
        case UInt8(ascii: "f"): return try parseLiteral("false", .bool(false))
        case UInt8(ascii: "n"): return try parseLiteral("null", .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        default: throw failure("unexpected \(describeCurrentByte()); expected a JSON value")
        }
    }

    private mutating func parseLiteral(_ word: StaticString, _ value: JSONValue) throws(JSONParseError) -> JSONValue {
        let count = word.utf8CodeUnitCount
        let matches = word.withUTF8Buffer { expected in
            position + count <= bytes.count && bytes[position..<position + count].elementsEqual(expected)
        }
        guard matches else { throw failure("invalid literal; expected '\(word)'") }
        position += count
        return value
    }

    private mutating func enterContainer() throws(JSONParseError) {
        depth += 1
        if depth > Self.maximumDepth {
            throw failure("nesting is deeper than \(Self.maximumDepth) levels")
        }
    }

    private mutating func parseObject() throws(JSONParseError) -> JSONValue {
        try enterContainer()
        position += 1
        var members: [String: JSONValue] = [:]
        skipWhitespace()
        if position < bytes.count && bytes[position] == UInt8(ascii: "}") {
            position += 1
            depth -= 1
            return .object(members)
        }
        while true {
            skipWhitespace()
            guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else {
                throw failure("expected a member name in double quotes, found \(describeCurrentByte())")
            }
            let keyLocation = location
            let key = try parseString()
            skipWhitespace()
            guard position < bytes.count, bytes[position] == UInt8(ascii: ":") else {
                throw failure("expected ':' after the member name \"\(key)\", found \(describeCurrentByte())")
            }
            position += 1
            skipWhitespace()
            path.append(.key(key))
            if recordingLocations {
                let memberPath = JSONPath(components: path)
                if members[key] != nil { duplicateKeys.append((memberPath, keyLocation)) }
                keyLocations[memberPath] = keyLocation
            }
            members[key] = try parseValue()
            path.removeLast()
            skipWhitespace()
            guard position < bytes.count else { throw failure("unexpected end of input; expected ',' or '}'") }
            if bytes[position] == UInt8(ascii: ",") {
                position += 1
                continue
            }
            if bytes[position] == UInt8(ascii: "}") {
                position += 1
                depth -= 1
                return .object(members)
            }
            throw failure("expected ',' or '}' after an object member, found \(describeCurrentByte())")
        }
    }

    private mutating func parseArray() throws(JSONParseError) -> JSONValue {
        try enterContainer()
        position += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if position < bytes.count && bytes[position] == UInt8(ascii: "]") {
            position += 1
            depth -= 1
            return .array(elements)
        }
        while true {
            skipWhitespace()
            path.append(.index(elements.count))
            elements.append(try parseValue())
            path.removeLast()
            skipWhitespace()
            guard position < bytes.count else { throw failure("unexpected end of input; expected ',' or ']'") }
            if bytes[position] == UInt8(ascii: ",") {
                position += 1
                continue
            }
            if bytes[position] == UInt8(ascii: "]") {
                position += 1
                depth -= 1
                return .array(elements)
            }
            throw failure("expected ',' or ']' after an array element, found \(describeCurrentByte())")
        }
    }

    /// Parses a string starting at its opening quote. Plain runs are validated and copied in one go;
    /// escapes are decoded into a scratch buffer only when present.
    private mutating func parseString() throws(JSONParseError) -> String {
        position += 1
        let start = position
        while position < bytes.count {
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
                let text = try makeString(bytes[start..<position], at: start)
                position += 1
                return text
            }
            if byte == UInt8(ascii: "\\") { break }
            if byte < 0x20 {
                throw failure("control character 0x\(String(byte, radix: 16)) must be escaped in a string")
            }
            position += 1
        }
        var scratch = Array(bytes[start..<position])
        while position < bytes.count {
            let byte = bytes[position]
            switch byte {
            case UInt8(ascii: "\""):
                let text = try makeString(scratch[...], at: start)
                position += 1
                return text
            case UInt8(ascii: "\\"):
                try parseEscape(into: &scratch)
            case 0..<0x20:
                throw failure("control character 0x\(String(byte, radix: 16)) must be escaped in a string")
            default:
                scratch.append(byte)
                position += 1
            }
        }
        throw failure("unterminated string")
    }

    private func makeString(_ utf8: ArraySlice<UInt8>, at start: Int) throws(JSONParseError) -> String {
        if Self.isValidUTF8(utf8) { return String(decoding: utf8, as: UTF8.self) }
        throw JSONParseError(
            message: "the string is not valid UTF-8",
            location: SourceLocation(line: line, column: start - lineStart + 1, offset: start))
    }

    /// Whether `bytes` are well-formed UTF-8 (no overlong forms, surrogates or truncated sequences), so that
    /// `String(decoding:as:)` has nothing to repair. `String(validating:as:)` would do this in one pass, but it
    /// needs iOS 18 / macOS 15; the standard library's UTF-8 decoder is available everywhere.
    private static func isValidUTF8(_ bytes: ArraySlice<UInt8>) -> Bool {
        if bytes.allSatisfy({ $0 < 0x80 }) { return true }
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue: continue
            case .emptyInput: return true
            case .error: return false
            }
        }
    }

    private mutating func parseEscape(into scratch: inout [UInt8]) throws(JSONParseError) {
        position += 1
        guard position < bytes.count else { throw failure("unterminated escape sequence") }
        let byte = bytes[position]
        position += 1
        switch byte {
        case UInt8(ascii: "\""): scratch.append(0x22)
        case UInt8(ascii: "\\"): scratch.append(0x5C)
        case UInt8(ascii: "/"): scratch.append(0x2F)
        case UInt8(ascii: "b"): scratch.append(0x08)
        case UInt8(ascii: "f"): scratch.append(0x0C)
        case UInt8(ascii: "n"): scratch.append(0x0A)
        case UInt8(ascii: "r"): scratch.append(0x0D)
        case UInt8(ascii: "t"): scratch.append(0x09)
        case UInt8(ascii: "u"):
            let scalar = try parseUnicodeEscape()
            scratch.append(contentsOf: scalar.utf8)
        default:
            position -= 1
            throw failure("invalid escape sequence '\\\(Character(Unicode.Scalar(byte)))'")
        }
    }

    /// Decodes `XXXX` after `\u`, joining a surrogate pair; a lone surrogate is an error because it
    /// cannot be represented in a Swift `String` (or in valid UTF-8).
    private mutating func parseUnicodeEscape() throws(JSONParseError) -> Unicode.Scalar {
        let first = try parseHex4()
        switch first {
        case 0xD800...0xDBFF:
            guard position + 1 < bytes.count, bytes[position] == UInt8(ascii: "\\"),
                bytes[position + 1] == UInt8(ascii: "u")
            else {
                throw failure("lone high surrogate \\u\(String(first, radix: 16, uppercase: true)) in a string")
            }
            position += 2
            let second = try parseHex4()
            guard (0xDC00...0xDFFF).contains(second) else {
                throw failure("high surrogate not followed by a low surrogate in a string")
            }
            return try scalar(0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00))
        case 0xDC00...0xDFFF:
            throw failure("lone low surrogate \\u\(String(first, radix: 16, uppercase: true)) in a string")
        default:
            return try scalar(first)
        }
    }

    /// The scalar `value` names: always one for what ``parseUnicodeEscape()`` passes (surrogates are joined or
    /// refused first), an error rather than a trap if that ever changed.
    private func scalar(_ value: UInt32) throws(JSONParseError) -> Unicode.Scalar {
        guard let scalar = Unicode.Scalar(value) else {
            throw failure("\\u escape \(String(value, radix: 16, uppercase: true)) is not a Unicode scalar")
        }
        return scalar
    }

    private mutating func parseHex4() throws(JSONParseError) -> UInt32 {
        guard position + 4 <= bytes.count else { throw failure("incomplete \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[position]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: throw failure("invalid hexadecimal digit in a \\u escape")
            }
            value = value << 4 | digit
            position += 1
        }
        return value
    }

    private mutating func parseNumber() throws(JSONParseError) -> JSONValue {
        let start = position
        let startLocation = location
        if bytes[position] == UInt8(ascii: "-") { position += 1 }
        guard position < bytes.count, isDigit(bytes[position]) else { throw failure("expected a digit in a number") }
        if bytes[position] == UInt8(ascii: "0") {
            position += 1
            if position < bytes.count, isDigit(bytes[position]) {
                throw failure("leading zeros are not allowed in a number")
            }
        } else {
            skipDigits()
        }
        var isIntegral = true
        if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
            isIntegral = false
            position += 1
            guard position < bytes.count, isDigit(bytes[position]) else {
                throw failure("expected a digit after the decimal point")
            }
            skipDigits()
        }
        if position < bytes.count, bytes[position] == UInt8(ascii: "e") || bytes[position] == UInt8(ascii: "E") {
            isIntegral = false
            position += 1
            if position < bytes.count, bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-") {
                position += 1
            }
            guard position < bytes.count, isDigit(bytes[position]) else {
                throw failure("expected a digit in the exponent")
            }
            skipDigits()
        }
        let literal = String(decoding: bytes[start..<position], as: UTF8.self)
        if isIntegral, let integer = Int64(literal) { return .integer(integer) }
        guard let double = Double(literal), double.isFinite else {
            throw JSONParseError(message: "number \(literal) is out of range", location: startLocation)
        }
        return .double(double)
    }

    private func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    private mutating func skipDigits() {
        while position < bytes.count, isDigit(bytes[position]) { position += 1 }
    }
}
