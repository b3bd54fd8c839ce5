import Foundation
import Testing

@testable import Pushbutton

/// Every push type's topic suffix, priorities, size and payload rules, as the validator applies them.
@Suite struct PushTypeRulesTests {
    static func diagnostics(
        _ text: String, _ type: PushType, priority: Int? = nil, topic: String? = nil
    ) -> [Diagnostic] {
        PayloadValidator().validate(
            jsonBytes: Array(text.utf8), context: .init(pushType: type, priority: priority, topic: topic)
        ).diagnostics
    }

    @Test func everyDocumentedPushTypeIsKnownWithItsTopicSuffix() {
        let suffixes: [(PushType, String?)] = [
            (.alert, nil), (.background, nil), (.location, ".location-query"), (.voip, ".voip"),
            (.complication, ".complication"), (.fileprovider, ".pushkit.fileprovider"), (.mdm, nil),
            (.liveactivity, ".push-type.liveactivity"), (.pushtotalk, ".voip-ptt"), (.widgets, ".push-type.widgets"),
            (.controls, ".push-type.controls"),
        ]
        #expect(PushType.known == suffixes.map(\.0))
        for (type, suffix) in suffixes {
            #expect(type.topicSuffix == suffix, "\(type)")
            #expect(type.topic(forBundleID: "com.example.app") == "com.example.app" + (suffix ?? ""))
            // Added once: a topic that has the suffix already keeps it.
            #expect(
                type.topic(forBundleID: type.topic(forBundleID: "com.example.app"))
                    == type.topic(forBundleID: "com.example.app"))
            if suffix != nil { #expect(PushType.suffixed(topic: "com.example.app" + suffix!) == type) }
        }
        #expect(PushType.suffixed(topic: "com.example.app") == nil)
        #expect(PushType(rawValue: "banner").isKnown == false)
        #expect(PushType.voip.maximumPayloadSize == 5120 && PushType.controls.maximumPayloadSize == 4096)
        #expect(PushType.background.allowedPriorities == [5] && PushType.alert.allowedPriorities == [10, 5, 1])
        #expect(PushType.location.requiresTokenAuthentication && PushType.liveactivity.requiresTokenAuthentication)
        #expect(!PushType.alert.requiresTokenAuthentication)
    }

    @Test func controlsIsNoLongerAnUnknownPushType() {
        let found = Self.diagnostics(#"{"aps": {"content-changed": true}}"#, .controls)
        #expect(found.isEmpty, "\(found)")
    }

    @Test func prioritiesAreCheckedPerPushType() throws {
        let alert = #"{"aps": {"alert": "x"}}"#
        let unknown = try #require(Self.diagnostics(alert, .alert, priority: 7).first)
        #expect(unknown.code == .priorityNotAllowed && unknown.severity == .error)
        #expect(unknown.message.contains("400 BadPriority"))
        for priority in [10, 5, 1] { #expect(Self.diagnostics(alert, .alert, priority: priority).isEmpty) }
        // A background push allows 5 only.
        let wake = #"{"aps": {"content-available": 1}}"#
        #expect(Self.diagnostics(wake, .background, priority: 5).isEmpty)
        let low = try #require(Self.diagnostics(wake, .background, priority: 1).first)
        #expect(low.code == .priorityNotAllowed && low.hint == "send it with apns-priority 5")
        // Priority 10 on a wake-only payload is reported once, by the background-priority rule.
        #expect(Self.diagnostics(wake, .background, priority: 10).map(\.code) == [.backgroundPriority])
        // Live Activities and location pushes: Apple documents 10 and 5.
        let live = #"{"aps": {"timestamp": 1800000000, "event": "update", "content-state": {}}}"#
        #expect(Self.diagnostics(live, .liveactivity, priority: 10).isEmpty)
        let note = try #require(Self.diagnostics(live, .liveactivity, priority: 1).first)
        #expect(note.severity == .note && note.code == .priorityNotAllowed)
    }

    @Test(arguments: [
        (PushType.voip, "com.example.app", "com.example.app.voip"),
        (.liveactivity, "com.example.app", "com.example.app.push-type.liveactivity"),
        (.pushtotalk, "com.example.app.voip", "com.example.app.voip-ptt"),
        (.widgets, "com.example.app.push-type.controls", "com.example.app.push-type.widgets"),
        (.location, "com.example.app", "com.example.app.location-query"),
        (.alert, "com.example.app.voip", "com.example.app"),
        (.background, "com.example.app.push-type.liveactivity", "com.example.app"),
    ])
    func aTopicWithoutItsSuffixIsAnErrorThatSaysTheRightOne(type: PushType, topic: String, right: String) throws {
        let text = Self.payload(for: type)
        #expect(Self.diagnostics(text, type, topic: right).isEmpty, "\(Self.diagnostics(text, type, topic: right))")
        let wrong = try #require(Self.diagnostics(text, type, topic: topic).first { $0.code == .topicMismatch })
        #expect(wrong.severity == .error)
        #expect(wrong.message.contains("DeviceTokenNotForTopic"))
        #expect(wrong.hint?.contains("'\(right)'") == true, "\(wrong.hint ?? "")")
        #expect(Self.diagnostics(text, type, topic: "").first?.message.contains("MissingTopic") == true)
    }

    /// A payload valid for `type`.
    static func payload(for type: PushType) -> String {
        switch type {
        case .background: return #"{"aps": {"content-available": 1}}"#
        case .widgets, .controls: return #"{"aps": {"content-changed": true}}"#
        case .mdm: return #"{"mdm": "magic"}"#
        case .liveactivity: return #"{"aps": {"timestamp": 1800000000, "event": "update", "content-state": {}}}"#
        case .alert: return #"{"aps": {"alert": "x"}}"#
        default: return #"{"aps": {}, "call": "x"}"#
        }
    }

    @Test func everyKnownTypeAcceptsItsOwnPayloadWithItsOwnTopic() {
        for type in PushType.known where type != .mdm {
            let found = Self.diagnostics(
                Self.payload(for: type), type, priority: type.allowedPriorities[0],
                topic: type.topic(forBundleID: "com.example.app"))
            #expect(found.isEmpty, "\(type): \(found)")
        }
        #expect(Self.diagnostics(#"{"mdm": "magic"}"#, .mdm, topic: "com.apple.mgmt.External.1234").isEmpty)
    }

    @Test func widgetsAndControlsNeedContentChanged() throws {
        for type in [PushType.widgets, .controls] {
            let missing = try #require(Self.diagnostics(#"{"aps": {}}"#, type).first)
            #expect(missing.code == .missingField && missing.severity == .error && missing.path.description == "aps")
            #expect(missing.hint?.contains(#""content-changed": true"#) == true)
            let shown = Self.diagnostics(#"{"aps": {"content-changed": true, "alert": "x"}}"#, type)
            #expect(shown.map(\.code) == [.pushTypeMismatch] && shown[0].severity == .warning)
        }
        // The flag is the JSON true: 1 is refused where it is read.
        let one = Self.diagnostics(#"{"aps": {"content-changed": 1}}"#, .widgets)
        #expect(one.contains { $0.code == .typeMismatch && $0.path.description == "aps.content-changed" })
        let elsewhere = Self.diagnostics(#"{"aps": {"alert": "x", "content-changed": true}}"#, .alert)
        #expect(elsewhere.map(\.code) == [.pushTypeMismatch])
    }

    @Test func mdmPushesCarryThePushMagic() throws {
        #expect(Self.diagnostics(#"{"mdm": "8D3C…"}"#, .mdm).isEmpty)  // no aps needed
        let missing = try #require(Self.diagnostics(#"{"aps": {}}"#, .mdm).first)
        #expect(missing.code == .missingField && missing.path.description == "mdm")
        #expect(Self.diagnostics(#"{"mdm": 4}"#, .mdm).map(\.code) == [.typeMismatch])
        #expect(Self.diagnostics(#"{"mdm": ""}"#, .mdm).map(\.code) == [.missingField])
        #expect(Self.diagnostics(#"{"mdm": "m", "aps": {"alert": "x"}}"#, .mdm).map(\.code) == [.pushTypeMismatch])
        // Without the mdm push type, a payload without aps is still an error.
        #expect(Self.diagnostics(#"{"mdm": "m"}"#, .alert).contains { $0.code == .missingAPS })
        #expect(Payload.mdm(pushMagic: "m").mdmPushMagic == "m")
        #expect(String(decoding: PayloadWriter.encode(.mdm(pushMagic: "m")), as: UTF8.self) == #"{"aps":{},"mdm":"m"}"#)
    }

    @Test func voipPayloadsMayBeLargerThanOthers() {
        let big = #"{"aps": {}, "call": ""# + String(repeating: "x", count: 4500) + #""}"#
        #expect(Self.diagnostics(big, .voip).isEmpty)
        for type in PushType.known where type != .voip {
            #expect(Self.diagnostics(big, type).contains { $0.code == .payloadTooLarge }, "\(type)")
        }
    }

    @Test func buttonsAndLiveActivityKeysOnTheWrongPushTypeAreWarnings() {
        let category = Self.diagnostics(#"{"aps": {"content-changed": true, "category": "message"}}"#, .widgets)
        #expect(category.contains { $0.code == .pushTypeMismatch && $0.path.description == "aps.category" })
        let live = Self.diagnostics(
            #"{"aps": {"alert": "x", "event": "update", "content-state": {}, "timestamp": 1}}"#, .alert)
        let warning = live.first { $0.code == .pushTypeMismatch }
        #expect(warning?.message.contains("event, content-state") == true)
        #expect(warning?.hint?.contains(".push-type.liveactivity") == true)
    }

    @Test func contentChangedAndTheLiveActivityKeysWriteAndReadBack() throws {
        var payload = Payload.contentChanged()
        #expect(String(decoding: PayloadWriter.encode(payload), as: UTF8.self) == #"{"aps":{"content-changed":true}}"#)
        payload.aps.inputPushToken = true
        payload.aps.inputPushChannel = "dHN0LXNyY2gtY2hubA=="
        let bytes = PayloadWriter.encode(payload)
        let read = try #require(Payload.parse(bytes).payload)
        #expect(read == payload)
        #expect(
            read.aps.contentChanged && read.aps.inputPushToken && read.aps.inputPushChannel == "dHN0LXNyY2gtY2hubA==")
        payload.aps.contentChanged = false
        payload.aps.inputPushToken = false
        payload.aps.inputPushChannel = nil
        #expect(payload.aps.extra.isEmpty)
    }

    @Test func summaryArgumentsAreModelledWrittenAndRead() throws {
        var alert = AlertContent(title: "Anna", body: "3 new photos")
        alert.summaryArgument = "Anna"
        alert.summaryArgumentCount = 3
        var payload = Payload()
        payload.aps.alert = .content(alert)
        let text = String(decoding: PayloadWriter.encode(payload), as: UTF8.self)
        #expect(text.contains(#""summary-arg":"Anna""#) && text.contains(#""summary-arg-count":3"#))
        let read = try #require(Payload.parse(Array(text.utf8)).payload)
        guard case .content(let content) = read.aps.alert else { Issue.record("no alert"); return }
        #expect(content.summaryArgument == "Anna" && content.summaryArgumentCount == 3)
        let negative = Self.diagnostics(#"{"aps": {"alert": {"body": "x", "summary-arg-count": -1}}}"#, .alert)
        #expect(negative.contains { $0.code == .typeMismatch && $0.path.description == "aps.alert.summary-arg-count" })
    }

    @Test func hostileHeaderValuesNeverTrap() {
        let text = #"{"aps": {"alert": "x"}}"#
        for priority in [Int.min, -1, 0, 2, 11, Int.max] {
            #expect(Self.diagnostics(text, .alert, priority: priority).map(\.code) == [.priorityNotAllowed])
        }
        for topic in [".voip", "\u{0}", String(repeating: ".voip", count: 1000), "com.x.push-type.liveactivity.voip"] {
            _ = Self.diagnostics(text, .voip, topic: topic)
            _ = Self.diagnostics(text, .alert, topic: topic)
        }
        #expect(Self.diagnostics(text, PushType(rawValue: ""), topic: "x").map(\.code) == [.unknownValue])
    }

    @Test func theArticleListsEveryPushTypeWithItsTopicAndItsExampleHolds() throws {
        let article = try String(
            contentsOf: TestFiles.packageRoot.appendingPathComponent(
                "Sources/Pushbutton/Pushbutton.docc/PushTypesAndLiveActivities.md"),
            encoding: .utf8)
        let rows = article.split(separator: "\n").filter { $0.hasPrefix("| `") }
        for type in PushType.known {
            let row = try #require(rows.first { $0.hasPrefix("| `\(type)` |") }, "no row for \(type)")
            if let suffix = type.topicSuffix { #expect(row.contains("`\(suffix)`"), "\(row)") }
            #expect(row.contains(type == .background ? "5 only" : "10"), "\(row)")
        }
        for code in [Diagnostic.Code.priorityNotAllowed, .topicMismatch, .liveActivityEvent] {
            #expect(rows.contains { $0.hasPrefix("| `\(code)` |") }, "no row for \(code)")
        }
        let context = PayloadValidator.Context(pushType: .widgets, priority: 10, topic: "com.example.app")
        let found = PayloadValidator().validate(.contentChanged(), context: context)
        #expect(found.map(\.code) == [.topicMismatch])
        // The example is a snippet the article shows (@Snippet), with the output it prints in a comment.
        #expect(article.contains(#"@Snippet(path: "Pushbutton/Snippets/PushTypeValidation")"#))
        let snippet = try String(
            contentsOf: TestFiles.packageRoot.appendingPathComponent("Snippets/PushTypeValidation.swift"),
            encoding: .utf8)
        #expect(snippet.contains("hint: \(found[0].hint ?? "-")"))
    }
}
