import Pushbutton
import Testing

/// Strings are validated as UTF-8 with the standard library's decoder (available at every declared platform
/// minimum) instead of `String(validating:as:)` (iOS 18): invalid bytes are an error, never repaired.
@Suite struct JSONStringUTF8Tests {
    static func parse(_ inner: [UInt8]) throws(JSONParseError) -> JSONValue {
        try JSONParser.parse([UInt8(ascii: "\"")] + inner + [UInt8(ascii: "\"")])
    }

    @Test func wellFormedTextOfEveryLengthIsKept() throws {
        let text = "a é € 😀 Ответ"
        #expect(try Self.parse(Array(text.utf8)) == .string(text))
        #expect(try Self.parse([]) == .string(""))
    }

    @Test(
        arguments: [
            [0xC0, 0xAF],  // overlong "/"
            [0xE0, 0x80, 0xAF],  // overlong, three bytes
            [0xED, 0xA0, 0x80],  // a UTF-16 surrogate (U+D800)
            [0xF4, 0x90, 0x80, 0x80],  // beyond U+10FFFF
            [0xFF],  // never a UTF-8 byte
            [0x80],  // a continuation byte with no lead
            [0xE2, 0x82],  // truncated "€"
            [0x61, 0xF0, 0x9F, 0x98],  // truncated emoji after ASCII
        ] as [[UInt8]])
    func malformedUTF8IsAnErrorNotRepaired(bytes: [UInt8]) {
        #expect(throws: JSONParseError.self) { try Self.parse(bytes) }
        do {
            _ = try Self.parse(bytes)
        } catch {
            #expect(error.message == "the string is not valid UTF-8")
            #expect(error.location.offset == 1)  // the string's first byte, after the quote
        }
    }
}
