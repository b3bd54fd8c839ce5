import Foundation
import Testing

@testable import Pushbutton

@Suite struct PayloadValidatorTests {
    static let validator: PayloadValidator = {
        let manifest = Manifest.parse(Array(try! Data(contentsOf: TestFiles.example("manifest")))).manifest!
        return PayloadValidator(manifest: manifest)
    }()

    static func diagnostics(_ text: String, _ context: PayloadValidator.Context = .init()) -> [Diagnostic] {
        validator.validate(jsonBytes: Array(text.utf8), context: context).diagnostics
    }

    @Test func theExamplePayloadsAreValid() throws {
        for name in ["message", "friend-request", "dynamic", "builtin-actions"] {
            let bytes = Array(try Data(contentsOf: TestFiles.example("payloads/\(name)")))
            #expect(Self.validator.validate(jsonBytes: bytes).diagnostics.isEmpty, "\(name)")
        }
    }

    @Test(arguments: [
        // (payload, code, path, severity)
        (
            #"{"aps": {"alert": "x", "category": "mesage"}}"#, Diagnostic.Code.unknownCategory, "aps.category",
            Diagnostic.Severity.error
        ),
        (
            #"{"aps": {"alert": "x", "category": "message"}, "pushbutton": {"v": 1, "buttons": {"lke": [{"action": "a"}]}}}"#,
            .unknownButton, "pushbutton.buttons.lke", .error
        ),
        (
            #"{"aps": {"alert": "x", "category": "message"}, "pushbutton": {"v": 1, "buttons": {"like": [{"action": "pushbutton.open_url", "args": {"url": "https://x.test"}}]}}}"#,
            .backgroundOpen, "pushbutton.buttons.like[0].action", .error
        ),
        (
            #"{"aps": {"alert": "x", "category": "message"}, "pushbutton": {"v": 1, "buttons": {"like": [{"action": "pushbutton.callback", "args": {"url": "https://x.test", "include_reply": true}}]}}}"#,
            .replyWithoutTextInput, "pushbutton.buttons.like[0].args.include_reply", .error
        ),
        (
            #"{"aps": {"alert": "x", "category": "message"}, "pushbutton": {"v": 1, "buttons": {"like": [{"action": "pushbutton.callback"}]}}}"#,
            .actionArguments, "pushbutton.buttons.like[0].args.url", .error
        ),
        (
            #"{"aps": {"alert": "x", "category": "message"}, "pushbutton": {"v": 1, "buttons": {"like": [{"action": "pushbutton.callback", "args": {"url": "http://api.test/x"}}]}}}"#,
            .actionArguments, "pushbutton.buttons.like[0].args.url", .warning
        ),
        (
            #"{"aps": {"alert": "x", "category": "message"}, "pushbutton": {"v": 1, "buttons": {"like": [{"action": "pushbutton.calback"}]}}}"#,
            .unknownBuiltinAction, "pushbutton.buttons.like[0].action", .error
        ),
        (
            #"{"aps": {"alert": "x"}, "pushbutton": {"v": 1, "body": [{"action": "pushbutton.open_url", "args": {"url": "chatter://x"}}]}}"#,
            .actionArguments, "pushbutton.body[0].args.url", .error
        ),
        (
            #"{"aps": {"alert": "x"}, "pushbutton": {"v": 1, "buttons": {"like": [{"action": "a"}]}}}"#, .noCategory,
            "pushbutton.buttons", .error
        ),
        (
            #"{"aps": {"alert": "x", "category": "friend_request"}, "pushbutton": {"v": 1, "dismiss": [{"action": "a"}]}}"#,
            .dismissNotReported, "pushbutton.dismiss", .error
        ),
        (#"{"aps": {"content-available": 1}}"#, .pushTypeMismatch, "aps", .warning),
        (#"{"aps": {}}"#, .missingAlert, "aps", .error),
        (#"{"aps": {"category": "message", "badge": 1}}"#, .missingAlert, "aps.category", .error),
        (#"{"aps": {"mutable-content": 1, "badge": 1}}"#, .missingAlert, "aps.mutable-content", .warning),
        (#"{"aps": {"alert": "x", "badge": -2}}"#, .valueRange, "aps.badge", .error),
        (#"{"aps": {"alert": "x", "relevance-score": 1.5}}"#, .valueRange, "aps.relevance-score", .error),
        (
            #"{"aps": {"alert": "x", "sound": {"critical": 1, "name": "a", "volume": 2}}}"#, .valueRange,
            "aps.sound.volume", .error
        ),
        (
            #"{"aps": {"alert": "x", "interruption-level": "time_sensitive"}}"#, .unknownValue,
            "aps.interruption-level", .error
        ),
        (#"{"aps": {"alert": "x", "interruption-level": "critical"}}"#, .unknownValue, "aps.interruption-level", .note),
        (
            #"{"aps": {"alert": "x", "category": "wrong", "mutable-content": 1}, "pushbutton": {"v": 1, "define": [{"id": "a", "title": "A"}]}}"#,
            .dynamicButtons, "aps.category", .error
        ),
        (
            #"{"aps": {"alert": "x", "category": "pushbutton.dyn.930f3a2086dc8813"}, "pushbutton": {"v": 1, "define": [{"id": "going", "title": "Going"}]}}"#,
            .dynamicButtons, "aps.mutable-content", .warning
        ),
        (#"{"aps": {"alert": "x", "input-push-token": true}}"#, .typeMismatch, "aps.input-push-token", .error),
        (#"{"aps": {"alert": {"body": "x", "summary-arg": 3}}}"#, .typeMismatch, "aps.alert.summary-arg", .error),
        (
            #"{"aps": {"alert": "x"}, "pushbutton": {"v": 1, "define": [{"id": "a", "title": "A"}, {"id": "a", "title": " "}]}}"#,
            .emptyTitle, "pushbutton.define[1].title", .error
        ),
    ])
    func rules(payload: String, code: Diagnostic.Code, path: String, severity: Diagnostic.Severity) throws {
        let found = Self.diagnostics(payload)
        let diagnostic = try #require(found.first { $0.code == code }, "no \(code) in \(found)")
        #expect(diagnostic.path.description == path)
        #expect(diagnostic.severity == severity)
        #expect(diagnostic.location != nil)
    }

    /// Apple's documented keys: summary-arg and summary-arg-count (alert), input-push-token (Live Activity start).
    @Test func knowsApplesDocumentedKeys() throws {
        let text =
            #"{"aps": {"alert": {"title": "Anna", "body": "Lunch?", "summary-arg": "Anna", "summary-arg-count": 2}, "input-push-token": 1}}"#
        let result = Self.validator.validate(jsonBytes: Array(text.utf8))
        // Known, so not "unknown"; only a liveactivity push delivers input-push-token, which is said.
        #expect(result.diagnostics.map(\.code) == [.pushTypeMismatch], "\(result.diagnostics)")
        #expect(result.diagnostics.first?.message.contains("input-push-token") == true)
        let payload = try #require(result.payload)
        #expect(try JSONParser.parse(PayloadWriter.encode(payload)) == (try JSONParser.parse(text)))
        let typo = Self.diagnostics(#"{"aps": {"alert": {"body": "x", "summary-args": "A"}}}"#)
        #expect(typo.first?.code == .unknownKey && typo.first?.hint == "did you mean 'summary-arg'?")
    }

    /// Without a manifest, every check that needs no category definitions still runs.
    @Test func withoutAManifestTheOtherChecksRun() throws {
        let validator = PayloadValidator()
        func codes(_ text: String) -> [Diagnostic.Code] {
            validator.validate(jsonBytes: Array(text.utf8)).diagnostics.filter { $0.severity == .error }.map(\.code)
        }
        let big = String(repeating: "x", count: 5_000)
        #expect(codes(#"{"aps": {"alert": "\#(big)", "category": "message"}}"#) == [.payloadTooLarge])
        #expect(codes(#"{"aps": {"alert": "x", "badge": -1}}"#) == [.valueRange])
        #expect(
            codes(
                #"{"aps": {"alert": "x", "category": "message"}, "pushbutton": {"v": 1, "buttons": {"like": [{"action": "pushbutton.calback"}], "go": [{"action": "pushbutton.callback"}], "open": [{"action": "pushbutton.open_url", "args": {"url": "chatter://x"}}]}}}"#
            ).sorted { $0.rawValue < $1.rawValue } == [.actionArguments, .actionArguments, .unknownBuiltinAction])
        // What needs the manifest is not guessed at: any category, any button, any traits.
        #expect(
            codes(
                #"{"aps": {"alert": "x", "category": "anything"}, "pushbutton": {"v": 1, "buttons": {"b": [{"action": "pushbutton.deeplink", "args": {"url": "app://x"}}, {"action": "pushbutton.callback", "args": {"url": "https://api.test/x", "include_reply": true}}]}, "dismiss": [{"action": "a"}]}}"#
            ).isEmpty)
        #expect(!validator.knowsCategories && Self.validator.knowsCategories)
    }

    @Test func unknownCategoriesSuggestTheClosestDeclaredOne() throws {
        let diagnostic = try #require(Self.diagnostics(#"{"aps": {"alert": "x", "category": "mesage"}}"#).first)
        #expect(diagnostic.hint == "did you mean 'message'?")
        #expect(diagnostic.message.contains("shows no buttons"))
    }

    @Test func builtinCategoriesTheManifestUsesAreKnown() {
        let text =
            #"{"aps": {"alert": "x", "category": "pushbutton.yes_no"}, "pushbutton": {"v": 1, "buttons": {"pushbutton.yes": [{"action": "pushbutton.deeplink", "args": {"url": "app://yes"}}]}}}"#
        #expect(Self.diagnostics(text).isEmpty)
    }

    @Test func backgroundPushRules() {
        let background = PayloadValidator.Context(pushType: .background, priority: 10)
        let codes = Self.diagnostics(#"{"aps": {"content-available": 1}}"#, background).map(\.code)
        #expect(codes == [.backgroundPriority])
        let visible = Self.diagnostics(#"{"aps": {"alert": "x"}}"#, .init(pushType: .background)).map(\.code)
        #expect(visible.contains(.pushTypeMismatch))
        #expect(
            Self.diagnostics(#"{"aps": {"content-available": 1}}"#, .init(pushType: .background, priority: 5)).isEmpty)
        #expect(
            Self.diagnostics(#"{"aps": {"alert": "x"}}"#, .init(pushType: PushType(rawValue: "alrt"))).first?.hint
                == "did you mean 'alert'?")
    }

    @Test func liveActivityRules() {
        let context = PayloadValidator.Context(pushType: .liveactivity)
        #expect(
            Self.diagnostics(#"{"aps": {"timestamp": 1, "event": "update", "content-state": {}}}"#, context).isEmpty)
        let codes = Self.diagnostics(#"{"aps": {"event": "begin"}}"#, context).map(\.code)
        #expect(codes.contains(.missingField) && codes.contains(.unknownValue))
        // A start needs content-state, attributes-type, attributes and an alert.
        #expect(
            Self.diagnostics(#"{"aps": {"timestamp": 1, "event": "start"}}"#, context).map(\.code)
                == [.missingField, .missingField, .missingField, .missingAlert])
    }

    @Test func oversizePayloadsSayByHowMuchAndWhatIsLargest() throws {
        let body = String(repeating: "x", count: 5000)
        let text = #"{"aps": {"alert": {"body": "\#(body)"}, "category": "message"}}"#
        let error = try #require(Self.diagnostics(text).first { $0.code == .payloadTooLarge })
        #expect(error.message.contains("over APNs' 4096-byte limit"))
        #expect(error.message.contains("aps.alert.body"))
        #expect(Self.diagnostics(text, .init(pushType: .voip)).allSatisfy { $0.code != .payloadTooLarge })
    }

    @Test func validatingTypedPayloadsNeedsNoText() {
        var payload = Payload.interactive(category: "message", title: "Anna", body: "Hi")
        payload.addAction(ActionSpec(ActionSpec.callback, arguments: ["url": "https://x.test/like"]), forButton: "like")
        #expect(Self.validator.validate(payload).isEmpty)
        payload.addAction(ActionSpec(ActionSpec.deepLink, arguments: ["url": "app://x"]), forButton: "like")
        #expect(Self.validator.validate(payload).map(\.code) == [.backgroundOpen])
    }
}
