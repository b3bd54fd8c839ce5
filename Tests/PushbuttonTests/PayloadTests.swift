import Foundation
import Testing

@testable import Pushbutton

@Suite struct PayloadTests {
    static let full: Payload = {
        var payload = Payload(
            aps: APS(
                alert: .content(
                    AlertContent(
                        title: "T", subtitle: "S", body: "B", launchImage: "L", titleLocKey: "tk", titleLocArgs: ["1"],
                        subtitleLocKey: "sk", subtitleLocArgs: ["2"], locKey: "lk", locArgs: ["3", "4"])),
                badge: 3, sound: .critical(name: "alarm.caf", volume: 0.5, isCritical: true), threadID: "thread",
                category: "message", contentAvailable: true, mutableContent: true, targetContentID: "target",
                interruptionLevel: .timeSensitive, relevanceScore: 0.75, filterCriteria: "work",
                liveActivity: LiveActivityFields(
                    timestamp: 1_700_000_000, event: "update", contentState: ["score": 3], staleDate: 1_700_000_600,
                    dismissalDate: 1_700_001_000, attributesType: "Game", attributes: ["team": "A"])),
            actionArguments: ["id": 42, "name": "x"], custom: ["a_first": true, "zz_last": [1, 2], "b": nil])
        payload.addAction(ActionSpec(ActionSpec.callback, arguments: ["url": "https://x.test/like"]), forButton: "like")
        payload.addBodyAction(ActionSpec(ActionSpec.deepLink, arguments: ["url": "app://m/1"]))
        payload.addDismissAction(ActionSpec("mark_seen"))
        return payload
    }()

    @Test func theFastWriterWritesExactlyTheSortedGenericEncoding() {
        var withExtras = Self.full
        withExtras.aps.extra = ["custom-in-aps": 1]
        var textAlert = Payload.interactive(category: "c", body: "plain")
        textAlert.aps.alert = .text("just text")
        var withAlertExtras = Self.full
        withAlertExtras.aps.alert = .content(AlertContent(body: "b", extra: ["action-loc-key": "VIEW"]))
        for payload in [Self.full, withExtras, textAlert, withAlertExtras, Payload(), Payload(custom: ["aps2": 1])] {
            #expect(PayloadWriter.encode(payload) == JSONWriter.compact(payload.jsonValue))
        }
    }

    @Test func writesCompactSortedJSON() {
        let payload = Payload.interactive(category: "message", title: "Anna", body: "Hi")
        #expect(
            String(decoding: PayloadWriter.encode(payload), as: UTF8.self)
                == #"{"aps":{"alert":{"body":"Hi","title":"Anna"},"category":"message"}}"#)
    }

    @Test func aWriterCanBeReusedWithoutLeftovers() {
        var writer = PayloadWriter()
        writer.write(Self.full)
        writer.write(Payload.interactive(category: "c", body: "b"))
        #expect(writer.bytes == PayloadWriter.encode(Payload.interactive(category: "c", body: "b")))
    }

    @Test func everyPayloadReadsBackAsItself() throws {
        for payload in [Self.full, Payload.interactive(category: "c", title: nil, body: "é\n\"")] {
            let result = Payload.parse(PayloadWriter.encode(payload))
            #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
            #expect(result.payload == payload)
            #expect(try Payload(jsonBytes: PayloadWriter.encode(payload)) == payload)
        }
    }

    @Test func readsPayloadsItDidNotWriteAndKeepsUnknownKeys() throws {
        // The iOS 8 tutorial's payload puts its custom key inside aps.
        let result = Payload.parse(
            Array(#"{"aps": {"alert": "A sample", "category": "my_category", "some_id": "my_id"}}"#.utf8))
        let payload = try #require(result.payload)
        #expect(payload.aps.alert == .text("A sample"))
        #expect(payload.aps.extra == ["some_id": "my_id"])
        let warning = try #require(result.diagnostics.first)
        #expect(
            warning.code == .unknownKey && warning.severity == .warning && warning.path.description == "aps.some_id")
        #expect(
            PayloadWriter.encode(payload)
                == Array(#"{"aps":{"alert":"A sample","category":"my_category","some_id":"my_id"}}"#.utf8))
    }

    @Test func wrongTypesAreReportedAndKeptUntouched() throws {
        let text =
            #"{"aps": {"badge": "3", "categry": "x", "content-available": true, "sound": 5}, "action_args": [1]}"#
        let result = Payload.parse(Array(text.utf8))
        let payload = try #require(result.payload)
        #expect(payload.aps.extra["badge"] == "3")
        #expect(payload.aps.extra["content-available"] == true)
        #expect(payload.custom["action_args"] == [1])
        let codes = Set(result.diagnostics.map(\.code))
        #expect(codes == [.typeMismatch, .unknownKey, .malformedActionArguments])
        #expect(result.diagnostics.first { $0.code == .unknownKey }?.hint == "did you mean 'category'?")
        #expect(result.diagnostics.allSatisfy { $0.location != nil })
        #expect(try JSONParser.parse(PayloadWriter.encode(payload)) == (try JSONParser.parse(text)))
    }

    @Test func aPayloadWithoutApsOrNotAnObjectIsAnError() {
        #expect(Payload.parse(Array("{}".utf8)).diagnostics.first?.code == .missingAPS)
        #expect(Payload.parse(Array("[]".utf8)).payload == nil)
        #expect(Payload.parse(Array("{".utf8)).diagnostics.first?.code == .jsonSyntax)
        #expect(throws: JSONParseError.self) { try Payload(jsonBytes: Array("[]".utf8)) }
    }

    @Test func readsPerButtonActionsAndReportsTheirMistakes() throws {
        let text = #"""
            {"aps": {"alert": "x"}, "pushbutton": {"v": 2, "buttonz": {}, "buttons": {"like": [{"action": "a", "args": 3}, {"args": {}}]},
             "define": [{"id": "y", "title": "Y", "options": ["foregrund"]}]}}
            """#
        let result = Payload.parse(Array(text.utf8))
        let codes = result.diagnostics.map(\.code)
        #expect(codes.contains(.unsupportedVersion) && codes.contains(.unknownKey) && codes.contains(.typeMismatch))
        #expect(codes.contains(.missingField) && codes.contains(.unknownOption))
        // With errors inside, the object is kept as it was, so writing the payload changes nothing.
        #expect(result.payload?.actions == nil)
        #expect(result.payload?.custom["pushbutton"]?["buttonz"] == .object([:]))
    }
}

@Suite struct DynamicCategoryTests {
    let yes = DynamicButton("yes", title: "Yes", options: .foreground)
    let no = DynamicButton("no", title: "No")

    @Test func identicalSetsShareOneCategoryAndOthersDoNot() {
        let identifier = DynamicCategories.identifier(for: [yes, no])
        #expect(identifier == DynamicCategories.identifier(for: [yes, no]))
        #expect(identifier != DynamicCategories.identifier(for: [no, yes]))
        #expect(identifier != DynamicCategories.identifier(for: [yes, DynamicButton("no", title: "Nope")]))
        #expect(identifier != DynamicCategories.identifier(for: [DynamicButton("yes", title: "Yes"), no]))
        #expect(identifier.hasPrefix("pushbutton.dyn.") && identifier.count == "pushbutton.dyn.".count + 16)
        #expect(DynamicCategories.isDynamic(identifier))
    }

    @Test func theIdentifierIsStableAcrossReleases() {
        // Devices keep registered categories across app and server versions, so the hash must never change.
        #expect(
            DynamicCategories.identifier(for: [
                DynamicButton("going", title: "Going", options: .authenticationRequired),
                DynamicButton("maybe", title: "Maybe", options: .authenticationRequired),
            ]) == "pushbutton.dyn.0c26edca6249816d")
    }

    @Test func settingButtonsNamesTheDerivedCategory() {
        var payload = Payload.interactive(category: "ignored", body: "Party?")
        payload.setDynamicButtons([yes, no])
        #expect(payload.aps.category == DynamicCategories.identifier(for: [yes, no]))
        #expect(payload.aps.mutableContent)
        #expect(DynamicCategories.category(for: [yes, no]).actions.map(\.identifier) == ["yes", "no"])
    }
}

@Suite struct PayloadLosslessTests {
    /// Found by the payload fuzzer: unknown keys inside `pushbutton` and an empty actions object were lost.
    @Test(arguments: [
        #"{"aps": {"alert": "x"}, "pushbutton": {"v": 1, "dfiene": [1], "b}ttons": {}}}"#,
        #"{"aps": {"alert": "x"}, "pushbutton": {"v": 1}}"#,
        #"{"aps": {"alert": "x"}, "pushbutton": {"v": 1, "buttons": 5}}"#,
        #"{"aps": {"alert": "x"}, "pushbutton": {"v": 1, "buttons": {"a": [3]}}}"#,
        #"{"aps": {"alert": "x"}, "pushbutton": 7, "action_args": "s"}"#,
    ])
    func readingAndWritingChangesNothing(text: String) throws {
        let payload = try #require(Payload.parse(Array(text.utf8)).payload)
        let written = PayloadWriter.encode(payload)
        #expect(try JSONParser.parse(written) == (try JSONParser.parse(text)))
        #expect(Payload.parse(written).payload == payload)
    }

    @Test func typedFieldsWinOverCustomKeysOfTheSameName() throws {
        var payload = Payload.interactive(category: "c", body: "b")
        payload.custom = ["aps": 1, "pushbutton": 2, "action_args": 3, "other": 4]
        payload.actionArguments = ["k": 1]
        payload.actions = PayloadActions()
        let written = PayloadWriter.encode(payload)
        #expect(written == JSONWriter.compact(payload.jsonValue))
        #expect(try JSONParser.parse(written)["pushbutton"] == ["v": 1])
    }
}
