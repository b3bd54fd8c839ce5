import Foundation
import Testing

@testable import PushbuttonStore

/// The lease keeps each notification's headers and shared payload (they never change once stored), bounded.
struct NotificationHeadersTests {
    static func spec(kind: String) -> [SQLValue] {
        [.text("chat"), .text("com.example.chat"), .text("alert"), .null, .null, .null, .text(kind)]
    }

    @Test func keepsHeadersThenTheSharedPayloadAndTellsCampaignsApart() {
        let headers = NotificationHeaders()
        headers.keep(shared: [1], for: "c1")
        #expect(headers.shared("c1") == nil, "a shared payload is kept only with its headers")
        #expect(headers.isCampaign("c1") == nil)
        headers.keep(spec: Self.spec(kind: "campaign"), for: "c1")
        headers.keep(shared: [1, 2], for: "c1")
        headers.keep(spec: Self.spec(kind: "notification"), for: "n1")
        #expect(headers.spec("c1") == Self.spec(kind: "campaign"))
        #expect(headers.shared("c1") == [1, 2])
        #expect(headers.shared("n1") == nil)
        #expect(headers.isCampaign("c1") == true)
        #expect(headers.isCampaign("n1") == false)
    }

    @Test func startsAgainPastItsCapacity() {
        let headers = NotificationHeaders()
        for index in 0..<NotificationHeaders.capacity {
            headers.keep(spec: Self.spec(kind: "campaign"), for: "c\(index)")
        }
        #expect(headers.spec("c0") != nil)
        headers.keep(spec: Self.spec(kind: "campaign"), for: "one-more")
        #expect(headers.spec("c0") == nil)
        #expect(headers.spec("one-more") != nil)
        // Refreshing one already kept is no new entry.
        headers.keep(spec: Self.spec(kind: "campaign"), for: "one-more")
        #expect(headers.spec("one-more") != nil)
    }
}
