import PushbuttonSupport
import Testing

/// `HTML` escapes text by default: interpolated strings are escaped, interpolated markup is not, and the escape
/// keeps an SVG well-formed whatever the text holds.
struct HTMLTests {
    @Test func interpolatedTextIsEscapedAndMarkupIsNot() {
        let name = #"<script>alert("x")</script> & 'co'"#
        let cell: HTML = "<td title=\"\(name)\">\(name)</td>"
        let expected = "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;co&#39;"
        #expect(cell.text == "<td title=\"\(expected)\">\(expected)</td>")
        let row: HTML = "<tr>\(cell)\(42)</tr>"
        #expect(row.text == "<tr>" + cell.text + "42</tr>")
        #expect([cell, cell].joined(separator: "\n").text == cell.text + "\n" + cell.text)
        #expect(HTML(escaping: "a<b").text == "a&lt;b")
    }

    @Test func charactersXMLForbidsBecomeTheReplacementCharacter() {
        #expect(HTML.escape("a\u{0}b\u{1B}c\td\ne\u{FFFE}") == "a\u{FFFD}b\u{FFFD}c\td\ne\u{FFFD}")
    }
}
