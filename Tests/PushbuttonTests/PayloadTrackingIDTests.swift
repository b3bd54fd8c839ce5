import Pushbutton
import Testing

/// The gateway's tracking ids under `pushbutton` (`id`, `campaign`): typed, read and written.
struct PayloadTrackingIDTests {
    static let text = #"""
        {"aps":{"alert":{"body":"Lunch?"},"category":"message"},"pushbutton":{"buttons":{"like":[{"action":"pushbutton.callback","args":{"url":"https://api.example.com/like"}}]},"campaign":"c_42","id":"n_7","v":1}}
        """#

    @Test func theIdsAreReadIntoTypedFieldsAndWrittenBackInPlace() throws {
        let result = Payload.parse(Array(Self.text.utf8))
        #expect(result.diagnostics.isEmpty)
        let payload = try #require(result.payload)
        #expect(payload.actions?.notificationID == "n_7")
        #expect(payload.actions?.campaignID == "c_42")
        #expect(payload.actions?.extra.isEmpty == true)
        // The fast writer writes them where the sorted generic encoding has them.
        #expect(String(decoding: PayloadWriter.encode(payload), as: UTF8.self) == Self.text)
        #expect(PayloadWriter.encode(payload) == JSONWriter.compact(payload.jsonValue))
    }

    @Test func idsAloneMakeAPushbuttonObjectAndUnknownKeysStayBeside() throws {
        var payload = Payload.interactive(category: "message", body: "Hi")
        payload.actions = PayloadActions(extra: ["later": 1], notificationID: "n_1")
        let written = PayloadWriter.encode(payload)
        #expect(written == JSONWriter.compact(payload.jsonValue))
        let read = try #require(Payload.parse(written).payload)
        #expect(read.actions?.notificationID == "n_1")
        #expect(read.actions?.campaignID == nil)
        #expect(read.actions?.extra == ["later": 1])
        #expect(read == payload)
    }

    @Test func anIdThatIsNotAStringIsAnErrorAtItsPath() {
        let result = Payload.parse(Array(#"{"aps":{"alert":"Hi"},"pushbutton":{"v":1,"id":7}}"#.utf8))
        let error = result.diagnostics.first { $0.severity == .error }
        #expect(error?.path.description == "pushbutton.id")
    }
}
