import Pushbutton
import Testing

@Suite struct SendLineTests {
    @Test func integersBeyondInt64KeepEveryDigit() throws {
        let line =
            #"{"payload": {"aps": {"alert": "hi"}, "id": 123456789012345678901234567890, "x": -0.000001e-400}, "token": "ab"}"#
        let parsed = try SendLine.parse(Array(line.utf8))
        #expect(parsed.token == "ab")
        #expect(
            String(decoding: parsed.payload ?? [], as: UTF8.self)
                == #"{"aps":{"alert":"hi"},"id":123456789012345678901234567890,"x":-0.000001e-400}"#)
    }

    @Test func stringsKeepTheirSpacesAndEscapesAndTheLastDuplicateWins() throws {
        let line = #"{"token":"ab","payload":{"a":1},"p\u0061yload":{"s":"a \" , } ] b\\"}}"#
        let parsed = try SendLine.parse(Array(line.utf8))
        #expect(String(decoding: parsed.payload ?? [], as: UTF8.self) == #"{"s":"a \" , } ] b\\"}"#)
    }

    @Test func invalidUTF8AndOtherShapesAreFailures() throws {
        var bytes = Array(#"{"token":"ab","payload":{"aps":{"alert":"caf"#.utf8) + [0xE9] + Array(#""}}}"#.utf8)
        #expect(throws: SendLine.Failure.self) { try SendLine.parse(bytes) }
        bytes = Array(#"["token"]"#.utf8)
        #expect(throws: SendLine.Failure("not a JSON object with a \"token\" string")) { try SendLine.parse(bytes) }
        #expect(try SendLine.parse(Array(#"{"token":"ab"}"#.utf8)).payload == nil)
    }
}
