import Foundation
import Testing

@testable import Pushbutton

@Suite struct JSONWriterTests {
    private func text(_ value: JSONValue) -> String {
        String(decoding: JSONWriter.compact(value), as: UTF8.self)
    }

    @Test func escapesExactlyWhatJSONRequires() {
        #expect(text("q\"b\\s/") == #""q\"b\\s/""#)
        #expect(text("\n\r\t\u{8}\u{c}") == #""\n\r\t\b\f""#)
        #expect(text("\u{0}\u{1}\u{1f}") == #""\u0000\u0001\u001f""#)
        #expect(text("\u{7f}é😀\u{2028}") == "\"\u{7f}é😀\u{2028}\"")
    }

    @Test func writesIntegersAndDoublesThatRoundTrip() throws {
        for integer in [Int64.min, -1, 0, 7, 10, 1_234_567_890, Int64.max] {
            #expect(text(.integer(integer)) == String(integer))
            #expect(try JSONParser.parse(text(.integer(integer))) == .integer(integer))
        }
        for double in [0.1, -2.5, 1e-7, 1e300, .leastNonzeroMagnitude, 1.0, 123456.789] {
            #expect(try JSONParser.parse(text(.double(double))) == .double(double))
        }
        #expect(text(.double(.nan)) == "null")
        #expect(text(.double(.infinity)) == "null")
    }

    @Test func sortsObjectKeysSoOutputIsDeterministic() {
        #expect(text(["b": 1, "a": ["d": true, "c": nil]]) == #"{"a":{"c":null,"d":true},"b":1}"#)
    }

    @Test func prettyPrintsWithTwoSpaces() {
        #expect(
            JSONWriter.pretty(["a": [1, 2], "b": .object([:])])
                == "{\n  \"a\": [\n    1,\n    2\n  ],\n  \"b\": {}\n}\n")
    }

    @Test func everyControlCharacterSurvivesFoundationsParser() throws {
        let all = String(String.UnicodeScalarView((0..<0x80).compactMap(Unicode.Scalar.init)))
        let data = Data(JSONWriter.compact(["s": .string(all)]))
        let parsed = try JSONSerialization.jsonObject(with: data) as? [String: String]
        #expect(parsed?["s"] == all)
    }
}
