import Pushbutton
import Testing

@Suite struct TerminalTextTests {
    @Test func controlCharactersAreShownAsEscapes() {
        #expect(TerminalText.escaped("a\u{1B}[2Jb\nc\r\t\0\u{7F}\u{9B}") == #"a\u{1B}[2Jb\nc\r\t\u{0}\u{7F}\u{9B}"#)
        #expect(TerminalText.escaped("plain é 😀") == "plain é 😀")
    }
}
