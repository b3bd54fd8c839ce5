import Testing

@testable import PushbuttonGateway

struct TokenOnlyLineTests {
    static let hex = String(repeating: "ab12", count: 16)

    @Test func aLineOfOnlyATokenIsReadWithoutTheJSONParser() {
        for line in [
            #"{"token": "\#(Self.hex)"}"#, #"{"token":"\#(Self.hex)"}"#, #"  { "token" : "\#(Self.hex)" }  "#,
            "{\"token\":\t\"\(Self.hex)\"}\r",
        ] {
            #expect(TokenOnlyLine.token(Array(line.utf8)) == Self.hex, "\(line)")
        }
        #expect(TokenOnlyLine.token(Array(#"{"token": "ABCDEF"}"#.utf8)) == "ABCDEF")
    }

    @Test func everyOtherLineIsLeftToTheParser() {
        for line in [
            #"{"token": "\#(Self.hex)", "data": {"name": "Anna"}}"#, #"{"data": {}, "token": "\#(Self.hex)"}"#,
            #"{"user": "u-1"}"#, #"{"tokens": "\#(Self.hex)"}"#, #"{"token": "\#(Self.hex)""#,
            #"{"token": "\#(Self.hex)"} x"#, #"{"token": "\u0061\#(Self.hex)"}"#, #"{"token": ""}"#,
            #"{"token": "zz\#(Self.hex)"}"#, #"{"token": 12}"#, #"{"tok\u0065n": "\#(Self.hex)"}"#, "", "{",
            #"["token", "\#(Self.hex)"]"#,
        ] {
            #expect(TokenOnlyLine.token(Array(line.utf8)) == nil, "\(line)")
        }
    }
}
