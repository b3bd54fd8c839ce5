/// Writes JSON directly as UTF-8 bytes.
///
/// Strings are escaped exactly as RFC 8259 requires: `"` and `\` are escaped, control characters
/// below U+0020 use the short forms (`\n`, `\t`, …) or `\u00XX`, and everything else, non-ASCII
/// included, is copied as UTF-8. A Swift `String` cannot hold a lone surrogate, so the output is
/// always valid UTF-8. Object keys are written in sorted order, so equal values give equal bytes.
/// Integers are written exactly; doubles use Swift's shortest round-trip form; a non-finite double
/// (which JSON cannot express) is written as `null`, as JavaScript's `JSON.stringify` does.
public struct JSONWriter: Sendable {
    /// The bytes written so far.
    public private(set) var bytes: [UInt8] = []

    /// Indentation per level when pretty-printing; `nil` writes compact JSON.
    public var indentation: Int?

    /// Creates a writer; `pretty` indents by two spaces per level and puts each member on its own line.
    public init(pretty: Bool = false, reservingCapacity capacity: Int = 256) {
        indentation = pretty ? 2 : nil
        bytes.reserveCapacity(capacity)
    }

    /// Writes a value as compact JSON.
    public static func compact(_ value: JSONValue) -> [UInt8] {
        var writer = JSONWriter()
        writer.write(value)
        return writer.bytes
    }

    /// Writes a value as indented JSON with a trailing newline.
    public static func pretty(_ value: JSONValue) -> String {
        var writer = JSONWriter(pretty: true)
        writer.write(value)
        writer.bytes.append(0x0A)
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    /// Clears the output, keeping its capacity, so one writer can serve many documents.
    public mutating func reset() {
        bytes.removeAll(keepingCapacity: true)
    }

    /// Appends raw, already valid JSON text (e.g. a punctuation byte).
    public mutating func writeRaw(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// Appends one raw byte.
    public mutating func writeRaw(_ byte: UInt8) {
        bytes.append(byte)
    }

    /// Appends raw, already valid JSON bytes at once (text written in place, such as a UUID's).
    package mutating func writeRaw(_ raw: UnsafeBufferPointer<UInt8>) {
        bytes.append(contentsOf: raw)
    }

    /// Writes any JSON value at the given nesting level.
    public mutating func write(_ value: JSONValue, level: Int = 0) {
        switch value {
        case .null: writeRaw("null")
        case .bool(let bool): bool ? writeRaw("true") : writeRaw("false")
        case .integer(let integer): write(integer)
        case .double(let double): write(double)
        case .string(let string): write(string)
        case .array(let elements): writeArray(elements, level: level)
        case .object(let members): writeObject(members, level: level)
        }
    }

    /// Writes an integer in decimal.
    public mutating func write(_ integer: Int64) {
        if integer >= 0 && integer < 10 {
            bytes.append(UInt8(ascii: "0") + UInt8(integer))
            return
        }
        var magnitude = integer.magnitude
        var digits: (UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0)  // 40 bytes ≥ 20 digits
        let count = withUnsafeMutableBytes(of: &digits) { buffer -> Int in
            var index = buffer.count
            repeat {
                index -= 1
                buffer[index] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            if integer < 0 {
                bytes.append(UInt8(ascii: "-"))
            }
            bytes.append(contentsOf: buffer[index...])
            return buffer.count - index
        }
        _ = count
    }

    /// Writes a double in its shortest round-trip form, or `null` when it is not finite.
    public mutating func write(_ double: Double) {
        guard double.isFinite else {
            writeRaw("null")
            return
        }
        bytes.append(contentsOf: double.description.utf8)
    }

    /// Writes a string with exact JSON escaping.
    public mutating func write(_ string: String) {
        bytes.append(UInt8(ascii: "\""))
        writeStringContents(string)
        bytes.append(UInt8(ascii: "\""))
    }

    /// Writes a string's escaped contents without the quotes (for text spliced into a string).
    public mutating func writeStringContents(_ string: String) {
        if let done: Void = string.utf8.withContiguousStorageIfAvailable({ writeEscaped($0) }) { return done }
        var string = string
        string.withUTF8 { writeEscaped($0) }
    }

    /// Copies UTF-8 text, escaping what JSON requires. Eight bytes are tested at a time for a byte to escape;
    /// the test may flag a word that needs none (a borrow), never miss one, and flagged words go byte by byte.
    private mutating func writeEscaped(_ utf8: UnsafeBufferPointer<UInt8>) {
        var runStart = 0
        var index = 0
        if let base = utf8.baseAddress {
            while index + 8 <= utf8.count {
                let word = UInt64(littleEndian: UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self))
                if !Self.mayNeedEscape(word) {
                    index += 8
                    continue
                }
                for _ in 0..<8 {
                    let byte = utf8[index]
                    if byte < 0x20 || byte == 0x22 || byte == 0x5C {
                        if runStart < index {
                            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
                        }
                        appendEscape(for: byte)
                        runStart = index + 1
                    }
                    index += 1
                }
            }
        }
        while index < utf8.count {
            let byte = utf8[index]
            if byte < 0x20 || byte == 0x22 || byte == 0x5C {
                if runStart < index { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index])) }
                appendEscape(for: byte)
                runStart = index + 1
            }
            index += 1
        }
        if runStart < utf8.count { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart...])) }
    }

    /// Whether one of the word's bytes may be below 0x20, `"` or `\\` (bit tricks: a byte below n borrows
    /// when n is subtracted from it; equality is a zero byte after XOR).
    static func mayNeedEscape(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let high: UInt64 = 0x8080_8080_8080_8080
        let control = (word &- ones &* 0x20) & ~word & high
        let quotes = word ^ (ones &* 0x22)
        let backslashes = word ^ (ones &* 0x5C)
        let quote = (quotes &- ones) & ~quotes & high
        let backslash = (backslashes &- ones) & ~backslashes & high
        return (control | quote | backslash) != 0
    }

    /// Appends bytes that are already valid JSON text.
    public mutating func writeRaw(_ raw: [UInt8]) {
        bytes.append(contentsOf: raw)
    }

    private mutating func appendEscape(for byte: UInt8) {
        bytes.append(UInt8(ascii: "\\"))
        switch byte {
        case 0x22: bytes.append(UInt8(ascii: "\""))
        case 0x5C: bytes.append(UInt8(ascii: "\\"))
        case 0x08: bytes.append(UInt8(ascii: "b"))
        case 0x0C: bytes.append(UInt8(ascii: "f"))
        case 0x0A: bytes.append(UInt8(ascii: "n"))
        case 0x0D: bytes.append(UInt8(ascii: "r"))
        case 0x09: bytes.append(UInt8(ascii: "t"))
        default:
            let hex: StaticString = "0123456789abcdef"
            bytes.append(contentsOf: [UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0")])
            hex.withUTF8Buffer { digits in
                bytes.append(digits[Int(byte >> 4)])
                bytes.append(digits[Int(byte & 0x0F)])
            }
        }
    }

    private mutating func writeArray(_ elements: [JSONValue], level: Int) {
        bytes.append(UInt8(ascii: "["))
        for (index, element) in elements.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            writeNewline(level: level + 1)
            write(element, level: level + 1)
        }
        if !elements.isEmpty { writeNewline(level: level) }
        bytes.append(UInt8(ascii: "]"))
    }

    private mutating func writeObject(_ members: [String: JSONValue], level: Int) {
        bytes.append(UInt8(ascii: "{"))
        if members.count == 1, let (key, value) = members.first {
            // The common case (one argument, one button) needs no sorting.
            writeMember(key, value, level: level)
        } else {
            JSONMemberOrder.forEach(members) { index, key, value in
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                writeMember(key, value, level: level)
            }
        }
        if !members.isEmpty { writeNewline(level: level) }
        bytes.append(UInt8(ascii: "}"))
    }

    private mutating func writeMember(_ key: String, _ value: JSONValue, level: Int) {
        writeNewline(level: level + 1)
        write(key)
        bytes.append(UInt8(ascii: ":"))
        if indentation != nil { bytes.append(UInt8(ascii: " ")) }
        write(value, level: level + 1)
    }

    private mutating func writeNewline(level: Int) {
        guard let indentation else { return }
        bytes.append(0x0A)
        bytes.append(contentsOf: repeatElement(UInt8(ascii: " "), count: indentation * level))
    }
}
