/// The common recipient line, `{"token": "<hex>"}` and nothing else, read byte by byte: a campaign of a
/// million such lines no longer builds a JSON value (a dictionary and its strings) for each. Any other line,
/// a malformed one included, is left to the JSON parser, which reads it and says what is wrong where.
enum TokenOnlyLine {
    /// The token's text when `line` is exactly one `"token"` member whose value is hex digits (whitespace
    /// around the punctuation allowed), else nil.
    static func token(_ line: [UInt8]) -> String? {
        line.withUnsafeBufferPointer { bytes -> String? in
            var index = 0
            func skipSpace() {
                while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x09 || bytes[index] == 0x0D {
                    index += 1
                }
            }
            func expect(_ byte: UInt8) -> Bool {
                skipSpace()
                guard index < bytes.count, bytes[index] == byte else { return false }
                index += 1
                return true
            }
            func exactly(_ text: String) -> Bool {
                skipSpace()
                for byte in text.utf8 {
                    guard index < bytes.count, bytes[index] == byte else { return false }
                    index += 1
                }
                return true
            }
            // {"token": "
            guard expect(0x7B), exactly("\"token\""), expect(0x3A), expect(0x22) else { return nil }
            let start = index
            while index < bytes.count, Self.isHexDigit(bytes[index]) { index += 1 }
            let end = index
            guard end > start, index < bytes.count, bytes[index] == 0x22 else { return nil }
            index += 1
            guard expect(0x7D) else { return nil }  // }
            skipSpace()
            guard index == bytes.count else { return nil }
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
        }
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x61...0x66).contains(byte) || (0x41...0x46).contains(byte)
    }
}
