import Foundation
import Pushbutton
import Testing

/// The tap event's wire contract: what a device writes (`TapEvent.jsonValue`) is what the gateway reads
/// (`TapEvent.read`), field by field, with the optional fields, unknown members and lines old devices wrote.
struct TapEventWireTests {
    static let at = Date(timeIntervalSince1970: 1_764_585_900.25)  // 2025-12-01T10:45:00.250Z

    static let full = TapEvent(
        eventID: "0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0", token: String(repeating: "ab", count: 32),
        notificationID: "n_42", campaignID: "c_7", variant: "B", category: "message", response: .button,
        button: "reply", foreground: true, latencyMilliseconds: 1500, reply: "On my way", respondedAt: at)

    /// The event through bytes, as the outbox stores and sends it and the gateway parses it.
    static func throughTheWire(_ event: TapEvent) throws -> (TapEvent?, [Diagnostic], [String: JSONValue]) {
        let bytes = JSONWriter.compact(event.jsonValue)
        let value = try JSONParser.parse(bytes)
        var diagnostics: [Diagnostic] = []
        let read = TapEvent.read(value, at: .root, diagnostics: &diagnostics)
        return (read, diagnostics, value.objectValue ?? [:])
    }

    @Test func everyFieldTheDeviceWritesIsTheFieldTheGatewayReads() throws {
        let (read, diagnostics, object) = try Self.throughTheWire(Self.full)
        #expect(diagnostics.isEmpty)
        #expect(read == Self.full)
        #expect(Set(object.keys) == Set(TapEvent.keys))
        #expect(object["event_id"] == .string(Self.full.eventID))
        #expect(object["token"] == .string(Self.full.token))
        #expect(object["notification"] == "n_42")
        #expect(object["campaign"] == "c_7")
        #expect(object["variant"] == "B")
        #expect(object["category"] == "message")
        #expect(object["response"] == "button")
        #expect(object["button"] == "reply")
        #expect(object["foreground"] == true)
        #expect(object["latency_ms"] == 1500)
        #expect(object["reply"] == "On my way")
        #expect(object["at"] == "2025-12-01T10:45:00.250Z")
    }

    @Test func absentOptionalFieldsAreNullOrLeftOutAndReadBackAsAbsent() throws {
        let event = TapEvent(
            eventID: "e1", token: String(repeating: "0a", count: 32), notificationID: "n_1", category: "",
            response: .dismiss, foreground: false, respondedAt: Self.at)
        let (read, diagnostics, object) = try Self.throughTheWire(event)
        #expect(diagnostics.isEmpty)
        #expect(read == event)
        #expect(object["campaign"] == .null)
        #expect(object["latency_ms"] == .null)
        #expect(object["variant"] == nil)
        #expect(object["button"] == nil)
        #expect(object["reply"] == nil)
        #expect(object["category"] == "")
    }

    @Test func aMemberTheReaderDoesNotKnowIsIgnored() throws {
        var object = try #require(Self.full.jsonValue.objectValue)
        object["shown_for_ms"] = 4000
        object["variant"] = .null
        var diagnostics: [Diagnostic] = []
        let read = TapEvent.read(.object(object), at: .root, diagnostics: &diagnostics)
        #expect(diagnostics.isEmpty)
        var expected = Self.full
        expected.variant = nil
        #expect(read == expected)
    }

    /// A line exactly as devices wrote it before `variant` existed (queued in an outbox on a phone, sent after the
    /// update): it still reads, with no variant.
    @Test func anEventAnOlderDeviceQueuedStillReads() throws {
        let line = #"""
            {"taps":[{"at":"2026-11-30T08:15:02.125Z","campaign":null,"category":"pushbutton.yes_no","event_id":"5c0d9a4e-1f2b-3c4d-5e6f-708192a3b4c5","foreground":false,"latency_ms":812,"notification":"n_9","response":"button","button":"pushbutton.yes","token":"0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a"}]}
            """#
        let value = try JSONParser.parse(Array(line.utf8))
        var diagnostics: [Diagnostic] = []
        let event = try #require(value["taps"]?.arrayValue?.first)
        let read = try #require(TapEvent.read(event, at: .root, diagnostics: &diagnostics))
        #expect(diagnostics.isEmpty)
        #expect(read.eventID == "5c0d9a4e-1f2b-3c4d-5e6f-708192a3b4c5")
        #expect(read.campaignID == nil && read.variant == nil && read.reply == nil)
        #expect(read.response == .button && read.button == "pushbutton.yes" && read.foreground == false)
        #expect(read.latencyMilliseconds == 812)
        #expect(read.respondedAt == Date(timeIntervalSince1970: 1_796_026_502.125))
    }

    @Test func wrongValuesAreReportedWithTheirPaths() throws {
        let value: JSONValue = [
            "event_id": "", "token": 12, "notification": "n", "campaign": 3, "variant": true, "response": "swipe",
            "foreground": "yes", "latency_ms": -1, "reply": 5, "at": "yesterday",
        ]
        let path = JSONPath.root.appending("taps").appending(3)
        var diagnostics: [Diagnostic] = []
        #expect(TapEvent.read(value, at: path, diagnostics: &diagnostics) == nil)
        let found = Set(diagnostics.map { "\($0.path) \($0.code)" })
        #expect(
            found == [
                "taps[3].event_id type-mismatch", "taps[3].token type-mismatch", "taps[3].campaign type-mismatch",
                "taps[3].variant type-mismatch", "taps[3].category missing-field", "taps[3].response unknown-value",
                "taps[3].foreground type-mismatch", "taps[3].latency_ms type-mismatch", "taps[3].reply type-mismatch",
                "taps[3].at type-mismatch",
            ])
        #expect(diagnostics.allSatisfy { $0.severity == .error })
    }

    @Test func aButtonOnlyGoesWithAButtonResponse() {
        var diagnostics: [Diagnostic] = []
        var object = Self.full.jsonValue.objectValue ?? [:]
        object["response"] = "body"
        #expect(TapEvent.read(.object(object), at: .root, diagnostics: &diagnostics) == nil)
        #expect(diagnostics.map(\.code) == [.inconsistentAction])
        object["response"] = "button"
        object["button"] = nil
        diagnostics = []
        #expect(TapEvent.read(.object(object), at: .root, diagnostics: &diagnostics) == nil)
        #expect(diagnostics.map { "\($0.path) \($0.code)" } == ["button missing-field"])
    }
}
