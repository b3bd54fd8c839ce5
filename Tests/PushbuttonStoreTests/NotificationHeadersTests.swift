import Foundation
import Testing

@testable import PushbuttonStore

/// The lease keeps each notification's headers and shared payloads (they never change once stored), bounded.
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

    @Test func keepsVariantsAndLanguagesPayloadsWithTheHeadersOnceEachUpToItsCapacity() {
        let headers = NotificationHeaders()
        func row(_ variant: String?, _ language: String?) -> LeasedRow {
            LeasedRow(
                id: 1, batch: 1, notification: "c1", token: "t", apnsID: "a", leases: 1, wasQueued: true,
                variant: variant, language: language)
        }
        func keyed(_ variant: String?, _ language: String?, _ payload: [UInt8]) -> KeyedPayload {
            KeyedPayload(notification: "c1", variant: variant, language: language, payload: payload)
        }
        headers.keep(keyed: keyed(nil, "fr", [1]))
        #expect(headers.keyed(for: row(nil, "fr")) == nil, "kept only with its headers")
        headers.keep(spec: Self.spec(kind: "campaign"), for: "c1")
        headers.keep(keyed: keyed(nil, "fr", [1]))
        headers.keep(keyed: keyed(nil, "fr", [9]))
        headers.keep(keyed: keyed("A", nil, [2]))
        headers.keep(keyed: keyed("A", "fr", [3]))
        #expect(headers.keyed(for: row(nil, "fr")) == [1], "the first kept")
        #expect(headers.keyed(for: row("A", nil)) == [2])
        #expect(headers.keyed(for: row("A", "fr")) == [3])
        #expect(headers.keyed(for: row(nil, "de")) == nil)
        #expect(headers.keyed(for: row(nil, nil)) == nil, "the default is the shared one, not a keyed one")
        for index in 0..<NotificationHeaders.keyedCapacity { headers.keep(keyed: keyed(nil, "l\(index)", [4])) }
        #expect(headers.keyed(for: row(nil, "l\(NotificationHeaders.keyedCapacity - 4)")) == [4])
        #expect(headers.keyed(for: row(nil, "l\(NotificationHeaders.keyedCapacity - 3)")) == nil, "past the capacity")
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
