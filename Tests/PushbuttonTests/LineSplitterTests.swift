import Pushbutton
import Testing

@Suite struct LineSplitterTests {
    static func lines(_ text: [UInt8], chunk: Int, limit: Int = 1 << 20) -> [LineSplitter.Line] {
        var splitter = LineSplitter(maximumLength: limit)
        var lines: [LineSplitter.Line] = []
        var start = 0
        while start < text.count {
            let end = min(text.count, start + chunk)
            splitter.feed(text[start..<end]) { lines.append($0) }
            start = end
        }
        splitter.finish { lines.append($0) }
        return lines
    }

    @Test func splitsOnNewlinesDropsCRAndKeepsALastLineWithoutABreak() {
        let input = Array("a\r\n\nbc\nlast".utf8)
        for chunk in [1, 2, 3, 100] {
            #expect(
                Self.lines(input, chunk: chunk) == [
                    .text(Array("a".utf8)), .text([]), .text(Array("bc".utf8)), .text(Array("last".utf8)),
                ])
        }
    }

    @Test func bytesArePassedOnUndecoded() {
        #expect(Self.lines([0xFF, 0xFE, 0x0A], chunk: 1) == [.text([0xFF, 0xFE])])
    }

    @Test func aLineOverTheLimitIsReportedAndSkippedWithoutBeingKept() {
        let input = Array((String(repeating: "x", count: 100) + "\nok\n" + String(repeating: "y", count: 50)).utf8)
        for chunk in [1, 7, 1000] {
            #expect(
                Self.lines(input, chunk: chunk, limit: 10) == [
                    .tooLong(length: 100), .text(Array("ok".utf8)), .tooLong(length: 50),
                ])
        }
    }

    @Test(arguments: ["", "\n", "a", "a\n", "a\nb", "a\r\nb\r\n", "\r\n\r\n", "a\n\n\nb", "a\rb\n", "a\r", "\r"])
    func rangesOfAWholeInputAreTheStreamedLines(_ text: String) {
        let input = Array(text.utf8)
        let ranges = input.withUnsafeBufferPointer { LineSplitter.lineRanges(in: $0) }
        #expect(
            ranges.map { LineSplitter.Line.text(Array(input[$0])) } == Self.lines(input, chunk: 3),
            "\(text.debugDescription)")
    }
}
