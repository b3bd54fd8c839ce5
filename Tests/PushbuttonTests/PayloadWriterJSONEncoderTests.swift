import Foundation
import Testing

@testable import Pushbutton

/// The typed writer's bytes against Foundation's `JSONEncoder` (sorted keys, `/` unescaped) encoding the same
/// payload's JSON value: byte for byte the same, so the payload benchmark compares writers of one output.
@Suite struct PayloadWriterJSONEncoderTests {
    static func foundationBytes(_ payload: Payload) throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return Array(try encoder.encode(payload.jsonValue))
    }

    static func interactive() -> Payload {
        var payload = Payload.interactive(category: "message", title: "Anna 42", body: "Message 42: lunch at 12:00?")
        payload.aps.threadID = "chat-42"
        payload.addAction(
            ActionSpec(ActionSpec.callback, arguments: ["url": "https://api.example.com/messages/42/like"]),
            forButton: "like")
        payload.addBodyAction(ActionSpec(ActionSpec.deepLink, arguments: ["url": "chatter://message/42"]))
        payload.actionArguments = ["id": 42, "user": "user-42"]
        return payload
    }

    static func unicode() -> Payload {
        var payload = Payload.interactive(
            category: "message", title: "Crème brûlée 🎉 — 午餐 \"quoted\" back\\slash",
            body: "line\nbreak\ttab \u{1} \u{1F} \u{7F} \u{8}\u{C}\r / é\u{301} 👩‍👩‍👧")
        payload.aps.alert = .content(
            AlertContent(
                title: "Ünïcödé keys", subtitle: "sub/title", body: "🎉🎉🎉 twelve bytes of emoji and more text",
                locKey: "BODY_KEY", locArgs: ["é", "\u{0}", "\"\\"]))
        payload.actionArguments = ["ключ": "значение", "emoji 🎉": "✓", "a": "\u{10}"]
        return payload
    }

    static func nestedCustom() -> Payload {
        var payload = interactive()
        payload.custom = [
            "aaa": ["first": true, "list": [1, -2, 2.5, nil, ["deep": ["deeper": ["deepest": "end"]]]]],
            "zzz": "last",
            "m": ["k\(0)": 0, "k1": 1, "k2": 2, "k3": 3, "k4": 4, "k5": 5, "k6": 6, "k7": 7, "k8": 8, "k9": 9],
            "action_args2": ["b": 1, "a": 2, "c": 3],
        ]
        payload.addAction(
            ActionSpec("mark_read", arguments: ["ids": [1, 2, 3], "when": ["at": 1_700_000_000, "zone": "UTC"]]),
            forButton: "like")
        payload.addDismissAction(ActionSpec("mark_seen", arguments: ["id": 42]))
        return payload
    }

    static func liveActivity() -> Payload {
        var payload = Payload()
        payload.aps.alert = .content(AlertContent(title: "Delivery", body: "Your order is 2 stops away"))
        payload.aps.relevanceScore = 0.75
        payload.aps.liveActivity = LiveActivityFields(
            timestamp: 1_700_000_000, event: "update",
            contentState: [
                "status": "on the way", "stops": 2, "eta": ["minutes": 7, "window": [5, 10]], "driver": "Zoë",
                "progress": 0.5,
            ],
            staleDate: 1_700_000_600, dismissalDate: 1_700_003_600, attributesType: "DeliveryAttributes",
            attributes: ["order": "A-17", "items": 3])
        return payload
    }

    static func everyField() -> Payload {
        var payload = Payload.interactive(category: "invite", title: "Party", body: "Friday?")
        payload.aps.badge = 3
        payload.aps.sound = .critical(name: "alarm.caf", volume: 0.5, isCritical: true)
        payload.aps.contentAvailable = true
        payload.aps.mutableContent = true
        payload.aps.targetContentID = "window-1"
        payload.aps.interruptionLevel = .timeSensitive
        payload.aps.filterCriteria = "work"
        payload.aps.extra = ["x-unknown": ["nested": true]]
        payload.setDynamicButtons([
            DynamicButton("yes", title: "Yes", options: [.foreground]), DynamicButton("no", title: "No"),
        ])
        payload.actions?.notificationID = "n_3f2a"
        payload.actions?.campaignID = "c_91b0"
        payload.actions?.extra = ["future": 1]
        return payload
    }

    static func plainText() -> Payload {
        var payload = Payload()
        payload.aps.alert = .text("Just text, with \"quotes\" and a / slash")
        payload.aps.sound = .default
        return payload
    }

    static let representative: [(String, Payload)] = [
        ("interactive", interactive()), ("unicode", unicode()), ("nested custom data", nestedCustom()),
        ("Live Activity", liveActivity()), ("every field", everyField()), ("plain text", plainText()),
    ]

    @Test(arguments: representative.map(\.0))
    func typedWriterWritesJSONEncodersBytes(name: String) throws {
        let payload = try #require(Self.representative.first { $0.0 == name }?.1)
        let ours = PayloadWriter.encode(payload)
        #expect(
            String(decoding: ours, as: UTF8.self) == String(decoding: try Self.foundationBytes(payload), as: UTF8.self))
        #expect(ours == JSONWriter.compact(payload.jsonValue))
        #expect(try JSONParser.parse(ours) == payload.jsonValue)
    }

    @Test func oneWriterReusedForManyPayloadsWritesEachAsAFreshOneWould() throws {
        var writer = PayloadWriter()
        for (_, payload) in Self.representative + Self.representative.reversed() {
            writer.write(payload)
            #expect(writer.bytes == PayloadWriter.encode(payload))
            #expect(writer.bytes == (try Self.foundationBytes(payload)))
        }
    }

    @Test func objectsOfEverySmallSizeAreWrittenInSortedKeyOrder() throws {
        // 0…12 members: the single-member, small (sorted on the stack) and large (sorted array) paths.
        for size in 0...12 {
            var members: [String: JSONValue] = [:]
            for index in 0..<size {
                members["key-\(String(UnicodeScalar(UInt8(122 - index * 3 % 26))))\(index)"] = .integer(Int64(index))
            }
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            #expect(JSONWriter.compact(.object(members)) == Array(try encoder.encode(JSONValue.object(members))))
        }
    }

    @Test func stringsWithEveryByteToEscapeAtEveryOffsetAreEscapedExactly() throws {
        // The writer tests eight bytes at a time: put each byte that needs escaping at every offset of a word.
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        for special in (0..<0x20).map({ Character(Unicode.Scalar(UInt8($0))) }) + ["\"", "\\", "é", "🎉", "/"] {
            for offset in 0..<17 {
                let text = String(repeating: "a", count: offset) + String(special) + String(repeating: "b", count: 9)
                #expect(JSONWriter.compact(.string(text)) == Array(try encoder.encode(text)), "\(offset)")
            }
        }
    }
}
