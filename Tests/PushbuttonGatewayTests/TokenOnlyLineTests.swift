import PushbuttonAPNs
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

    @Test func aDeviceTokenIsCheckedAndLowercasedAsDeviceTokenWould() throws {
        let upper = Self.hex.uppercased()
        #expect(TokenOnlyLine.deviceToken(Array(#"{"token": "\#(upper)"}"#.utf8)) == Self.hex)
        #expect(TokenOnlyLine.deviceToken(Array(#"{"token": "\#(Self.hex)"}"#.utf8)) == Self.hex)
        let longest = String(repeating: "f", count: DeviceToken.maximumDigits)
        #expect(TokenOnlyLine.deviceToken(Array(#"{"token": "\#(longest)"}"#.utf8)) == longest)
        // What DeviceToken refuses is left to the parser's path, which says why.
        for token in [String(Self.hex.dropFirst(2)), Self.hex + "a", longest + "ff", "ABCDEF"] {
            #expect(TokenOnlyLine.deviceToken(Array(#"{"token": "\#(token)"}"#.utf8)) == nil, "\(token.count)")
            #expect(throws: APNsError.self) { try DeviceToken(token) }
        }
        #expect(TokenOnlyLine.deviceToken(Array(#"{"token": "\#(Self.hex)", "data": {}}"#.utf8)) == nil)
        #expect(try DeviceToken(upper).hex == TokenOnlyLine.deviceToken(Array(#"{"token": "\#(upper)"}"#.utf8)))
    }
}
