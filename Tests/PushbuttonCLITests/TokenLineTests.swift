import Testing

@testable import PushbuttonCLI

/// A token file's lines as `send --tokens` reads them (`SendSetup.token(onLine:)`, over the line's bytes):
/// spaces, tabs and a CR around a token go, blank lines and `#` comments are skipped, the rest is kept as
/// it is for the token check to judge.
@Suite struct TokenLineTests {
    private func token(_ line: String) -> String? { SendSetup.token(onLine: Array(line.utf8)) }

    @Test func blanksAroundATokenGo() {
        let hex = String(repeating: "ab", count: 32)
        #expect(token(hex) == hex)
        #expect(token("  \t\(hex) \r") == hex)
        #expect(token("\(hex)\r") == hex)
        #expect(token("a b") == "a b")
    }

    @Test func blankLinesAndCommentsAreSkipped() {
        #expect(token("") == nil)
        #expect(token(" \t\r") == nil)
        #expect(token("# a comment") == nil)
        #expect(token("   #indented comment") == nil)
    }

    @Test func otherTextIsKeptForTheTokenCheck() {
        #expect(token("not-a-token") == "not-a-token")
        #expect(token(" ünïcode ") == "ünïcode")
    }
}
