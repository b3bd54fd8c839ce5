import Foundation
import Pushbutton
import PushbuttonStore
import Testing

@testable import PushbuttonGateway

/// A campaign page's lines, found as ranges of its body: the same lines, numbers and trimming as the model's
/// `LineSplitter` gives `pushbutton send`, and a bad line still refused with its own line number.
@Suite(.timeLimit(.minutes(2)))
struct IntakeLinesTests {
    typealias F = GatewayFixture

    /// The lines as they were read before: split by `LineSplitter`, leading blanks dropped.
    static func splitterLines(_ body: [UInt8]) -> [(text: [UInt8], line: Int)] {
        var splitter = LineSplitter(maximumLength: max(1, body.count))
        var lines: [(text: [UInt8], line: Int)] = []
        func keep(_ line: LineSplitter.Line) {
            guard case .text(let bytes) = line else { return }
            lines.append((Array(bytes.drop { $0 == 0x20 || $0 == 0x09 }), lines.count + 1))
        }
        splitter.feed(body, keep)
        splitter.finish(keep)
        return lines
    }

    @Test(arguments: [
        "", "\n", "a", "a\n", "a\nb", "a\r\nb\r\n", "\r\n\r\n", "a\n\n\nb", "  a\n\tb\n \t \n", " \r\n",
        "a\rb\n", "a\r", "\r", "{\"token\": \"ab\"}\r\n  {\"token\": \"cd\"}",
    ])
    func linesAreTheSplittersLines(_ text: String) {
        let body = Array(text.utf8)
        let ranges = RecipientList.lines(body)
        let expected = Self.splitterLines(body)
        #expect(ranges.map { Array(body[$0.range]) } == expected.map(\.text), "\(text.debugDescription)")
        #expect(ranges.map(\.line) == expected.map(\.line), "\(text.debugDescription)")
    }

    @Test func aBadLineIsRefusedWithItsLineNumber() async throws {
        let fixture = try await GatewayFixture(workers: 0)
        defer { Task { await fixture.stop() } }
        let header = #"{"category": "message", "body": "Hi"}"#
        let body = [header, #"  {"token": "\#(F.token(1))"}"#, "", #"{"token": 12}"#].joined(separator: "\r\n")
        let refused = try await fixture.request("POST", "/v1/apps/chat/campaigns", json: body)
        #expect(refused.status == 422, "\(refused.body)")
        #expect(refused.body.contains("line 4"), "\(refused.body)")
        #expect(try fixture.gateway.store.queueDepth() == 0, "a bad line refuses the whole page")

        let created = try await fixture.request(
            "POST", "/v1/apps/chat/campaigns", json: [header, #"{"token": "\#(F.token(1))"}"#].joined(separator: "\n"))
        let id = try #require(created.json?.objectValue?["id"]?.stringValue)
        let page = ["", #"{"token": "\#(F.token(2))"}"#, "not json"].joined(separator: "\n")
        let appended = try await fixture.request("POST", "/v1/campaigns/\(id)/recipients", json: page)
        #expect(appended.status == 422, "\(appended.body)")
        #expect(appended.body.contains("line 3: not a JSON object"), "\(appended.body)")
    }
}
