import PushbuttonAPNs

/// The common recipient line, `{"token": "<hex>"}` and nothing else, read byte by byte: a campaign of a
/// million such lines no longer builds a JSON value (a dictionary and its strings) for each. Any other line,
/// a malformed one included, is left to the JSON parser, which reads it and says what is wrong where.
enum TokenOnlyLine {
    /// The token's text when `line` is exactly one `"token"` member whose value is hex digits (whitespace
    /// around the punctuation allowed), else nil.
    static func token(_ line: [UInt8]) -> String? {
        line.withUnsafeBufferPointer { bytes -> String? in
            hexRange(bytes).map { String(decoding: UnsafeBufferPointer(rebasing: bytes[$0]), as: UTF8.self) }
        }
    }

    /// The token of such a line as a device token (``DeviceToken``'s rules: 64 to
    /// ``DeviceToken/maximumDigits`` digits, an even number), in lowercase, checked and copied in one pass;
    /// nil for any other line or a token of the wrong length (the parser's path then says what is wrong).
    static func deviceToken(_ line: [UInt8]) -> String? { deviceToken(line[...]) }

    /// ``deviceToken(_:)-([UInt8])`` of a line within a larger buffer (a campaign page's body), uncopied.
    static func deviceToken(_ line: ArraySlice<UInt8>) -> String? {
        line.withUnsafeBufferPointer { bytes -> String? in
            guard let range = hexRange(bytes), (64...DeviceToken.maximumDigits).contains(range.count),
                range.count % 2 == 0
            else { return nil }
            return String(unsafeUninitializedCapacity: range.count) { output in
                for (offset, byte) in bytes[range].enumerated() {
                    output[offset] = (0x41...0x46).contains(byte) ? byte + 0x20 : byte
                }
                return range.count
            }
        }
    }

    /// Where the hex digits of a `{"token": "<hex>"}` line are.
    private static func hexRange(_ bytes: UnsafeBufferPointer<UInt8>) -> Range<Int>? {
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
        return start..<end
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x61...0x66).contains(byte) || (0x41...0x46).contains(byte)
    }
}
