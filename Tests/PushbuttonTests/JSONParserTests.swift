import Foundation
import Testing

@testable import Pushbutton

@Suite struct JSONParserTests {
    @Test func parsesEveryKindOfValue() throws {
        let value = try JSONParser.parse(#"{"a": [1, -2.5, true, false, null, "x"], "b": {}, "c": []}"#)
        #expect(
            value == ["a": [1, -2.5, true, false, nil, "x"], "b": .object([:]), "c": .array([])])
    }

    @Test func keepsIntegersExactAndOtherNumbersAsDoubles() throws {
        #expect(try JSONParser.parse("9223372036854775807") == .integer(Int64.max))
        #expect(try JSONParser.parse("-9223372036854775808") == .integer(Int64.min))
        #expect(try JSONParser.parse("9223372036854775808") == .double(9_223_372_036_854_775_808))
        #expect(try JSONParser.parse("1.0") == .double(1))
        #expect(try JSONParser.parse("1e3") == .double(1000))
        #expect(try JSONParser.parse("-0") == .integer(0))
        #expect(try JSONParser.parse("0.1") == .double(0.1))
    }

    @Test func decodesEscapesAndSurrogatePairs() throws {
        let value = try JSONParser.parse(#""a\"b\\c\/d\b\f\n\r\t\u00e9\ud83d\ude00""#)
        #expect(value == .string("a\"b\\c/d\u{8}\u{c}\n\r\té😀"))
        #expect(try JSONParser.parse("\"héllo 世界\"") == .string("héllo 世界"))
    }

    @Test(arguments: [
        ("", "the document is empty", 1, 1),
        ("{", "expected a member name", 1, 2),
        ("{\"a\" 1}", "expected ':'", 1, 6),
        ("[1,]", "expected a JSON value", 1, 4),
        ("[1 2]", "expected ',' or ']'", 1, 4),
        ("{\"a\":1,}", "expected a member name", 1, 8),
        ("\n\n  tru", "invalid literal", 3, 3),
        ("01", "leading zeros", 1, 2),
        ("1.", "after the decimal point", 1, 3),
        ("1e", "in the exponent", 1, 3),
        ("-", "expected a digit", 1, 2),
        ("1e999", "out of range", 1, 1),
        ("\"abc", "unterminated string", 1, 5),
        ("\"a\u{1}b\"", "control character", 1, 3),
        ("\"\\x\"", "invalid escape", 1, 3),
        ("\"\\ud800\"", "lone high surrogate", 1, 8),
        ("\"\\udc00\"", "lone low surrogate", 1, 8),
        ("\"\\ud800\\u0041\"", "not followed by a low surrogate", 1, 14),
        ("\"\\u12g4\"", "invalid hexadecimal digit", 1, 6),
        ("{} x", "after the JSON value", 1, 4),
        ("'a'", "expected a JSON value", 1, 1),
    ])
    func reportsWhatAndWhere(text: String, message: String, line: Int, column: Int) {
        #expect {
            try JSONParser.parse(text)
        } throws: { error in
            guard let error = error as? JSONParseError else { return false }
            return error.message.contains(message) && error.location.line == line && error.location.column == column
        }
    }

    @Test func rejectsInvalidUTF8() {
        #expect(throws: JSONParseError.self) { try JSONParser.parse([0x22, 0xC3, 0x28, 0x22]) }
        #expect(throws: JSONParseError.self) { try JSONParser.parse([0x22, 0xFF, 0x22]) }
    }

    @Test func refusesNestingDeeperThanTheLimitInsteadOfOverflowingTheStack() throws {
        let deep = String(repeating: "[", count: 100_000)
        #expect(throws: JSONParseError.self) { try JSONParser.parse(deep) }
        let allowed =
            String(repeating: "[", count: JSONParser.maximumDepth)
            + String(repeating: "]", count: JSONParser.maximumDepth)
        #expect(throws: Never.self) { try JSONParser.parse(allowed) }
    }

    @Test func skipsAByteOrderMark() throws {
        #expect(try JSONParser.parse([0xEF, 0xBB, 0xBF] + Array("[1]".utf8)) == [1])
    }

    @Test func recordsLocationsOfValuesKeysAndDuplicates() throws {
        let text = "{\n  \"a\": [10,\n    {\"b\": true}],\n  \"a\": 2\n}"
        let document = try JSONParser.parseDocument(Array(text.utf8), recordingLocations: true)
        let inner = JSONPath.root.appending("a").appending(1).appending("b")
        #expect(document.keyLocations[inner] == SourceLocation(line: 3, column: 6, offset: 19))
        #expect(document.valueLocations[inner]?.line == 3)
        #expect(document.duplicateKeys.map(\.path) == [JSONPath.root.appending("a")])
        #expect(document.duplicateKeys.first?.location.line == 4)
        #expect(document.value["a"] == 2)
        #expect(document.location(of: inner.appending("missing"))?.line == 3)
    }

    @Test func agreesWithFoundationOnTheExampleManifests() throws {
        for name in ["manifest", "legacy-manifest", "broken-manifest"] {
            let data = try Data(contentsOf: TestFiles.example(name))
            let ours = try JSONParser.parse(Array(data))
            let foundation = try JSONDecoder().decode(JSONValue.self, from: data)
            #expect(ours == foundation, "\(name)")
        }
    }
}

enum TestFiles {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static func example(_ name: String) -> URL {
        packageRoot.appendingPathComponent("Examples/\(name).json")
    }
}
