import Foundation
import Testing

@testable import Pushbutton

/// Live Activity pushes: the builder writes what ActivityKit reads, and the validator says how to fix each
/// field of a start, an update and an end.
@Suite struct LiveActivityTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000.75)

    static func diagnostics(_ text: String, priority: Int? = nil) -> [Diagnostic] {
        PayloadValidator().validate(
            jsonBytes: Array(text.utf8), context: .init(pushType: .liveactivity, priority: priority)
        ).diagnostics
    }

    static func parsed(_ payload: Payload) throws -> JSONValue {
        try JSONParser.parse(PayloadWriter.encode(payload))
    }

    @Test func aStartWritesEveryKeyPushToStartNeeds() throws {
        let push = LiveActivityPush.start(
            attributesType: "DeliveryAttributes", attributes: ["order": 42], contentState: ["minutes": 12],
            alert: AlertContent(title: "On its way", body: "12 minutes"), timestamp: Self.now,
            staleDate: Self.now.addingTimeInterval(600), relevanceScore: 50)
        let expected: JSONValue = [
            "aps": [
                "event": "start", "timestamp": 1_800_000_000, "attributes-type": "DeliveryAttributes",
                "attributes": ["order": 42], "content-state": ["minutes": 12], "input-push-token": 1,
                "stale-date": 1_800_000_600, "relevance-score": 50.0,
                "alert": ["title": "On its way", "body": "12 minutes"],
            ]
        ]
        #expect(try Self.parsed(push.payload) == expected)
        #expect(PayloadValidator().validate(push.payload, context: .init(pushType: .liveactivity)).isEmpty)
        let channel = LiveActivityPush.start(
            attributesType: "A", attributes: [:], contentState: [:], alert: AlertContent(body: "x"),
            timestamp: Self.now,
            updates: .channel("Y2hhbm5lbA=="))
        #expect(try Self.parsed(channel.payload)["aps"]?["input-push-channel"] == "Y2hhbm5lbA==")
        #expect(try Self.parsed(channel.payload)["aps"]?["input-push-token"] == nil)
        let none = LiveActivityPush.start(
            attributesType: "A", attributes: [:], contentState: [:], alert: AlertContent(body: "x"),
            timestamp: Self.now,
            updates: .none)
        #expect(none.payload.aps.extra.isEmpty)
    }

    @Test func anUpdateAndAnEndInTwoLines() throws {
        let update = Payload.liveActivity(.update(contentState: ["minutes": 4], timestamp: Self.now))
        #expect(
            try Self.parsed(update)
                == ["aps": ["event": "update", "timestamp": 1_800_000_000, "content-state": ["minutes": 4]]])
        let end = Payload.liveActivity(
            .end(contentState: ["minutes": 0], timestamp: Self.now, dismissalDate: Self.now.addingTimeInterval(60)))
        #expect(try Self.parsed(end)["aps"]?["dismissal-date"] == 1_800_000_060)
        for payload in [update, end] {
            #expect(PayloadValidator().validate(payload, context: .init(pushType: .liveactivity, priority: 10)).isEmpty)
        }
        let alerting = LiveActivityPush.update(
            contentState: [:], timestamp: Self.now, alert: AlertContent(title: "Arriving", body: "now"))
        #expect(try Self.parsed(alerting.payload)["aps"]?["alert"]?["title"] == "Arriving")
    }

    @Test(arguments: [
        // (payload, code, path, severity, words in the message or hint)
        (
            #"{"aps": {"event": "update", "content-state": {}}}"#, Diagnostic.Code.missingField, "aps",
            Diagnostic.Severity.error, "timestamp"
        ),
        (#"{"aps": {"timestamp": 1800000000, "content-state": {}}}"#, .missingField, "aps", .error, "event"),
        (
            #"{"aps": {"timestamp": 1800000000, "event": "updte", "content-state": {}}}"#, .unknownValue, "aps.event",
            .error, "did you mean 'update'?"
        ),
        (#"{"aps": {"timestamp": 1800000000, "event": "update"}}"#, .missingField, "aps", .error, "content-state"),
        (#"{"aps": {"timestamp": 1800000000, "event": "end"}}"#, .missingField, "aps", .warning, "final"),
        (
            #"{"aps": {"timestamp": 1800000000000, "event": "update", "content-state": {}}}"#, .valueRange,
            "aps.timestamp", .error, "milliseconds"
        ),
        (
            #"{"aps": {"timestamp": -5, "event": "update", "content-state": {}}}"#, .valueRange, "aps.timestamp",
            .error, "epoch seconds"
        ),
        (
            #"{"aps": {"timestamp": 1800000000, "event": "update", "content-state": {}, "stale-date": 1700000000}}"#,
            .valueRange, "aps.stale-date", .warning, "stale at once"
        ),
        (
            #"{"aps": {"timestamp": 1800000000, "event": "update", "content-state": {}, "dismissal-date": 1800000060}}"#,
            .liveActivityEvent, "aps.dismissal-date", .warning, "only an end"
        ),
        (
            #"{"aps": {"timestamp": 1800000000, "event": "update", "content-state": {}, "attributes-type": "A"}}"#,
            .liveActivityEvent, "aps.attributes-type", .warning, "only a start"
        ),
        (
            #"{"aps": {"timestamp": 1800000000, "event": "end", "content-state": {}, "input-push-token": 1}}"#,
            .liveActivityEvent, "aps.input-push-token", .warning, "only a start"
        ),
        (
            #"{"aps": {"timestamp": 1800000000, "event": "start", "content-state": {}, "attributes": {}, "alert": "x"}}"#,
            .missingField, "aps", .error, "attributes-type"
        ),
        (
            #"{"aps": {"timestamp": 1800000000, "event": "start", "content-state": {}, "attributes-type": "", "attributes": {}, "alert": "x"}}"#,
            .missingField, "aps.attributes-type", .error, "empty"
        ),
        (
            #"{"aps": {"timestamp": 1800000000, "event": "start", "content-state": {}, "attributes-type": "A", "alert": "x"}}"#,
            .missingField, "aps", .error, "'attributes'"
        ),
        (
            #"{"aps": {"timestamp": 1800000000, "event": "start", "content-state": {}, "attributes-type": "A", "attributes": {}}}"#,
            .missingAlert, "aps", .error, "alert"
        ),
        (
            #"{"aps": {"timestamp": 1800000000, "event": "start", "content-state": {}, "attributes-type": "A", "attributes": {}, "alert": "x", "input-push-token": 1, "input-push-channel": "Yw=="}}"#,
            .liveActivityEvent, "aps.input-push-channel", .error, "not both"
        ),
        (
            #"{"aps": {"timestamp": 1800000000, "event": "start", "content-state": {}, "attributes-type": "A", "attributes": {}, "alert": "x", "input-push-channel": ""}}"#,
            .missingField, "aps.input-push-channel", .error, "empty"
        ),
        (
            #"{"aps": {"timestamp": 1800000000, "event": "start", "content-state": {}, "attributes-type": "A", "attributes": {}, "alert": "x", "input-push-channel": 7}}"#,
            .typeMismatch, "aps.input-push-channel", .error, "channel"
        ),
        (
            #"{"aps": {"timestamp": 1800000000, "event": "update", "content-state": []}}"#, .typeMismatch,
            "aps.content-state", .error, "object"
        ),
        (
            #"{"aps": {"timestamp": "now", "event": "update", "content-state": {}}}"#, .typeMismatch, "aps.timestamp",
            .error, "epoch seconds"
        ),
    ])
    func eachFieldIsCheckedWithAFix(
        payload: String, code: Diagnostic.Code, path: String, severity: Diagnostic.Severity, words: String
    ) throws {
        let found = Self.diagnostics(payload)
        let diagnostic = try #require(
            found.first { $0.code == code && $0.path.description == path && $0.severity == severity },
            "no \(severity) \(code) at \(path) in \(found)")
        let text = diagnostic.message + " " + (diagnostic.hint ?? "")
        #expect(text.contains(words), "\(text)")
        #expect(diagnostic.location != nil)
    }

    @Test func theNotBothRuleIsWordedAsItsHintSays() throws {
        let text =
            #"{"aps": {"timestamp": 1800000000, "event": "start", "content-state": {}, "attributes-type": "A", "attributes": {}, "alert": "x", "input-push-token": 1, "input-push-channel": "Yw=="}}"#
        let error = try #require(Self.diagnostics(text).first { $0.code == .liveActivityEvent })
        #expect(error.message.contains("'input-push-token'") && error.message.contains("'input-push-channel'"))
    }

    @Test func aPastDismissalDateIsTheDocumentedWayToRemoveAtOnce() {
        let text = #"{"aps": {"timestamp": 1800000000, "event": "end", "content-state": {}, "dismissal-date": 0}}"#
        #expect(Self.diagnostics(text).isEmpty)
    }

    @Test func aLiveActivityRelevanceScoreIsAnyNumber() {
        let text = #"{"aps": {"timestamp": 1800000000, "event": "update", "content-state": {}, "relevance-score": 75}}"#
        #expect(Self.diagnostics(text).isEmpty)
        let alert = PayloadValidator().validate(
            jsonBytes: Array(#"{"aps": {"alert": "x", "relevance-score": 75}}"#.utf8))
        #expect(alert.diagnostics.map(\.code) == [.valueRange])
    }

    @Test func hostileLiveActivityPayloadsNeverTrap() {
        let texts = [
            #"{"aps": {"timestamp": 9223372036854775807, "event": "start", "stale-date": -9223372036854775808}}"#,
            #"{"aps": {"timestamp": 1e300, "event": "\u0000", "content-state": null, "attributes": "x"}}"#,
            #"{"aps": {"event": ["start"], "dismissal-date": 1.5, "input-push-token": 2}}"#,
        ]
        for text in texts {
            let found = Self.diagnostics(text)
            #expect(found.containsErrors, "\(text)")
        }
        // Deep content and an emoji type name are the app's business: valid; an alert with nothing is a warning.
        let deep =
            #"{"aps": {"timestamp": 1, "event": "start", "content-state": {"a": {"b": {"c": [[[[1]]]]}}}, "attributes-type": "\ud83d\ude00", "attributes": {}, "alert": {}}}"#
        let found = Self.diagnostics(deep)
        #expect(
            found.map(\.code) == [.missingAlert] && found[0].severity == .warning
                && found[0].path.description == "aps.alert")
    }

    @Test func aLiveActivityAlertCarriesItsSoundInside() throws {
        var push = LiveActivityPush.update(
            contentState: [:], timestamp: Self.now, alert: AlertContent(title: "Arriving", body: "now"))
        push.sound = "chime.aiff"
        #expect(try Self.parsed(push.payload)["aps"]?["alert"]?["sound"] == "chime.aiff")
        #expect(try Self.parsed(push.payload)["aps"]?["sound"] == nil)
        let text = String(decoding: PayloadWriter.encode(push.payload), as: UTF8.self)
        #expect(Self.diagnostics(text).isEmpty, "\(Self.diagnostics(text))")
        // In a notification, the sound sits next to the alert: inside it, the reader's warning stands.
        let alert = PayloadValidator().validate(
            jsonBytes: Array(#"{"aps": {"alert": {"body": "x", "sound": "a"}}}"#.utf8))
        #expect(alert.diagnostics.map(\.code) == [.unknownKey])
        let wrong =
            #"{"aps": {"timestamp": 1800000000, "event": "update", "content-state": {}, "alert": {"body": "x", "sound": 1}}}"#
        #expect(Self.diagnostics(wrong).map(\.code) == [.typeMismatch])
    }
}
