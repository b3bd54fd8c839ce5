import Pushbutton
import Testing

@Suite struct HeaderFieldTests {
    @Test func valuesWithControlCharactersOrEdgeSpacesAreRefused() {
        for value in ["a\r\nx-injected: 1", "a\nb", "a\rb", "a\0b", "a\u{7F}", " a", "a\t"] {
            #expect(!HeaderField.isValidValue(value), "\(value.debugDescription)")
            #expect(HeaderField.problem(name: "apns-topic", value: value) != nil)
        }
        for value in ["com.example.app", "a b", "a\tb", "é", ""] { #expect(HeaderField.isValidValue(value)) }
        #expect(HeaderField.problem(name: "x", value: "a\nb")?.contains("U+000A") == true)
    }

    @Test func namesAreTokens() {
        #expect(HeaderField.isValidName("Idempotency-Key") && HeaderField.isValidName("POST"))
        for name in ["", "a b", "a:b", "a\r\n", "é"] { #expect(!HeaderField.isValidName(name)) }
    }
}
