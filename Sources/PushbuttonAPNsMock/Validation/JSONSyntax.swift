/// Whether bytes are one JSON object (RFC 8259, UTF-8), checked without building any value: the mock asks
/// this of every payload, and building the tree cost a quarter of its time. It accepts exactly what
/// `JSONParser` accepts as an object (a test compares them on thousands of mutated payloads).
enum JSONSyntax {
    static func isObject(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBufferPointer { buffer in
            var scanner = Scanner(bytes: buffer)
            // A byte order mark, as the parser allows.
            if buffer.starts(with: [0xEF, 0xBB, 0xBF]) { scanner.position = 3 }
            scanner.skipWhitespace()
            guard scanner.peek == UInt8(ascii: "{"), scanner.value(depth: 0) else { return false }
            scanner.skipWhitespace()
            return scanner.position == buffer.count
        }
    }

    private struct Scanner {
        let bytes: UnsafeBufferPointer<UInt8>
        var position = 0
        static let maximumDepth = 512

        var peek: UInt8? { position < bytes.count ? bytes[position] : nil }

        mutating func skipWhitespace() {
            while let byte = peek, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { position += 1 }
        }

        mutating func value(depth: Int) -> Bool {
            guard depth < Self.maximumDepth, let byte = peek else { return false }
            switch byte {
            case UInt8(ascii: "{"): return object(depth: depth + 1)
            case UInt8(ascii: "["): return array(depth: depth + 1)
            case UInt8(ascii: "\""): return string()
            case UInt8(ascii: "t"): return literal("true")
            case UInt8(ascii: "f"): return literal("false")
            case UInt8(ascii: "n"): return literal("null")
            default: return number()
            }
        }

        mutating func object(depth: Int) -> Bool {
            position += 1
            skipWhitespace()
            if peek == UInt8(ascii: "}") {
                position += 1
                return true
            }
            while true {
                skipWhitespace()
                guard peek == UInt8(ascii: "\""), string() else { return false }
                skipWhitespace()
                guard peek == UInt8(ascii: ":") else { return false }
                position += 1
                skipWhitespace()
                guard value(depth: depth) else { return false }
                skipWhitespace()
                guard let next = peek else { return false }
                position += 1
                if next == UInt8(ascii: "}") { return true }
                guard next == UInt8(ascii: ",") else { return false }
            }
        }

        mutating func array(depth: Int) -> Bool {
            position += 1
            skipWhitespace()
            if peek == UInt8(ascii: "]") {
                position += 1
                return true
            }
            while true {
                skipWhitespace()
                guard value(depth: depth) else { return false }
                skipWhitespace()
                guard let next = peek else { return false }
                position += 1
                if next == UInt8(ascii: "]") { return true }
                guard next == UInt8(ascii: ",") else { return false }
            }
        }

        mutating func literal(_ word: StaticString) -> Bool {
            let count = word.utf8CodeUnitCount
            guard position + count <= bytes.count else { return false }
            for index in 0..<count where bytes[position + index] != word.utf8Start[index] { return false }
            position += count
            return true
        }

        mutating func number() -> Bool {
            let start = position
            var hasExponent = false
            if peek == UInt8(ascii: "-") { position += 1 }
            guard let first = peek, isDigit(first) else { return false }
            position += 1
            if first != UInt8(ascii: "0") { skipDigits() }
            if peek == UInt8(ascii: ".") {
                position += 1
                guard let digit = peek, isDigit(digit) else { return false }
                skipDigits()
            }
            if peek == UInt8(ascii: "e") || peek == UInt8(ascii: "E") {
                hasExponent = true
                position += 1
                if peek == UInt8(ascii: "+") || peek == UInt8(ascii: "-") { position += 1 }
                guard let digit = peek, isDigit(digit) else { return false }
                skipDigits()
            }
            // Only a huge exponent or hundreds of digits can leave Double's range, which the parser refuses.
            guard hasExponent || position - start > 300 else { return true }
            let literal = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
            return Double(literal)?.isFinite ?? false
        }

        func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

        mutating func skipDigits() {
            while let byte = peek, isDigit(byte) { position += 1 }
        }

        /// A string: no raw control characters, valid escapes (a high surrogate escape must be followed by a
        /// low one, and a low one must not stand alone), and well-formed UTF-8.
        mutating func string() -> Bool {
            position += 1
            while let byte = peek {
                switch byte {
                case UInt8(ascii: "\""):
                    position += 1
                    return true
                case UInt8(ascii: "\\"):
                    guard escape() else { return false }
                case 0..<0x20:
                    return false
                case 0..<0x80:
                    position += 1
                default:
                    guard utf8Sequence() else { return false }
                }
            }
            return false
        }

        mutating func escape() -> Bool {
            position += 1
            guard let byte = peek else { return false }
            position += 1
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
                UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                return true
            case UInt8(ascii: "u"):
                guard let unit = hex4() else { return false }
                if (0xDC00...0xDFFF).contains(unit) { return false }
                guard (0xD800...0xDBFF).contains(unit) else { return true }
                guard position + 1 < bytes.count, bytes[position] == UInt8(ascii: "\\"),
                    bytes[position + 1] == UInt8(ascii: "u")
                else { return false }
                position += 2
                guard let low = hex4() else { return false }
                return (0xDC00...0xDFFF).contains(low)
            default:
                return false
            }
        }

        mutating func hex4() -> UInt32? {
            guard position + 4 <= bytes.count else { return nil }
            var value: UInt32 = 0
            for _ in 0..<4 {
                let byte = bytes[position]
                let digit: UInt32
                switch byte {
                case 0x30...0x39: digit = UInt32(byte - 0x30)
                case 0x61...0x66: digit = UInt32(byte - 0x61 + 10)
                case 0x41...0x46: digit = UInt32(byte - 0x41 + 10)
                default: return nil
                }
                value = value << 4 | digit
                position += 1
            }
            return value
        }

        /// One multi-byte UTF-8 sequence: no overlong forms, no surrogates, nothing above U+10FFFF.
        mutating func utf8Sequence() -> Bool {
            let lead = bytes[position]
            let length: Int
            var low: UInt8 = 0x80
            var high: UInt8 = 0xBF
            switch lead {
            case 0xC2...0xDF: length = 2
            case 0xE0:
                length = 3
                low = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: length = 3
            case 0xED:
                length = 3
                high = 0x9F
            case 0xF0:
                length = 4
                low = 0x90
            case 0xF1...0xF3: length = 4
            case 0xF4:
                length = 4
                high = 0x8F
            default: return false
            }
            guard position + length <= bytes.count else { return false }
            let second = bytes[position + 1]
            guard second >= low && second <= high else { return false }
            for index in 2..<max(length, 2) where bytes[position + index] & 0xC0 != 0x80 { return false }
            position += length
            return true
        }
    }
}
