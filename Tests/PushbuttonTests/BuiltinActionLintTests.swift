import Foundation
import Testing

@testable import Pushbutton

/// The lint rules of the built-in actions added for issue 19: situations, arguments, tags and groups. In the
/// example manifest, `friend_request.accept` opens the app and `message.like` runs in the background.
@Suite struct BuiltinActionLintTests {
    /// A payload whose `button` (of the category that has it) runs `action`, as JSON text.
    static func payload(_ button: String, _ action: String) -> String {
        let category = button == "like" ? "message" : "friend_request"
        return
            #"{"aps": {"alert": "x", "category": "\#(category)"}, "pushbutton": {"v": 1, "buttons": {"\#(button)": [\#(action)]}}}"#
    }

    static func diagnostics(_ button: String, _ action: String) -> [Diagnostic] {
        PayloadValidatorTests.validator.validate(jsonBytes: Array(payload(button, action).utf8)).diagnostics
    }

    @Test(arguments: [
        #"{"action": "pushbutton.copy", "args": {"text": "123456"}}"#,
        #"{"action": "pushbutton.rate_app"}"#,
        #"{"action": "pushbutton.open_settings"}"#,
        #"{"action": "pushbutton.open_settings", "args": {"page": "notifications"}}"#,
        #"{"action": "pushbutton.request_permission"}"#,
        #"{"action": "pushbutton.request_permission", "args": {"options": ["alert", "sound", "badge"]}}"#,
        #"{"action": "pushbutton.share", "args": {"url": "https://example.com/e/1"}}"#,
        #"{"action": "pushbutton.share", "args": {"text": "Lunch?", "url": "http://example.com"}}"#,
        #"{"action": "pushbutton.add_tag", "args": {"tag": "sports"}}"#,
        #"{"action": "pushbutton.remove_tag", "args": {"tags": ["plan:premium", "news.local", "a-b_c@d"]}}"#,
        #"{"action": "pushbutton.group", "args": {"actions": [{"action": "pushbutton.copy", "args": {"text": "1"}}, {"action": "track"}]}}"#,
    ])
    func validActionsOnAForegroundButtonPass(action: String) {
        #expect(Self.diagnostics("accept", action) == [])
    }

    @Test(arguments: [
        #"{"action": "pushbutton.add_tag", "args": {"tag": "sports"}}"#,
        #"{"action": "pushbutton.remove_tag", "args": {"tags": ["a", "b"]}}"#,
        #"{"action": "pushbutton.group", "args": {"actions": [{"action": "pushbutton.add_tag", "args": {"tag": "a"}}, {"action": "pushbutton.dismiss"}]}}"#,
    ])
    func backgroundSafeActionsPassOnABackgroundButton(action: String) {
        #expect(Self.diagnostics("like", action) == [])
    }

    @Test(arguments: [
        (#"{"action": "pushbutton.copy", "args": {"text": "1"}}"#, "pasteboard"),
        (#"{"action": "pushbutton.rate_app"}"#, "rating prompt"),
        (#"{"action": "pushbutton.open_settings"}"#, "Settings app"),
        (#"{"action": "pushbutton.request_permission"}"#, "permission prompt"),
        (#"{"action": "pushbutton.share", "args": {"text": "x"}}"#, "share sheet"),
    ])
    func foregroundOnlyActionsAreErrorsOnABackgroundButton(action: String, says: String) throws {
        let found = Self.diagnostics("like", action)
        let diagnostic = try #require(found.first { $0.code == .backgroundInterface }, "\(found)")
        #expect(diagnostic.severity == .error)
        #expect(diagnostic.path.description == "pushbutton.buttons.like[0].action")
        #expect(
            diagnostic.message.contains(says) && diagnostic.message.contains("button 'like' runs in the background"))
        #expect(diagnostic.hint?.contains("\"foreground\" option") == true)
        #expect(diagnostic.location != nil)
    }

    @Test func aForegroundOnlyActionInsideAGroupIsLocatedAtTheMember() throws {
        let found = Self.diagnostics(
            "like",
            #"{"action": "pushbutton.group", "args": {"actions": [{"action": "pushbutton.add_tag", "args": {"tag": "a"}}, {"action": "pushbutton.share", "args": {"text": "x"}}]}}"#
        )
        #expect(found.map(\.code) == [.backgroundInterface])
        #expect(found.first?.path.description == "pushbutton.buttons.like[0].args.actions[1].action")
        #expect(found.first?.location?.line == 1)
    }

    @Test func aDismissalCannotRunAForegroundOnlyAction() throws {
        let text =
            #"{"aps": {"alert": "x", "category": "message"}, "pushbutton": {"v": 1, "dismiss": [{"action": "pushbutton.rate_app"}]}}"#
        let found = PayloadValidatorTests.validator.validate(jsonBytes: Array(text.utf8)).diagnostics
        let diagnostic = try #require(found.first { $0.code == .backgroundInterface })
        #expect(diagnostic.path.description == "pushbutton.dismiss[0].action")
        #expect(diagnostic.message.contains("a dismissal runs in the background"))
    }

    @Test(arguments: [
        // (action, code, path under pushbutton.buttons.accept[0], severity, words of the message or hint)
        (
            #"{"action": "pushbutton.copy"}"#, Diagnostic.Code.actionArguments, "args.text", Diagnostic.Severity.error,
            "needs a 'text'"
        ),
        (
            #"{"action": "pushbutton.copy", "args": {"text": 42}}"#, .actionArguments, "args.text", .error,
            "must be a string, not a number"
        ),
        (#"{"action": "pushbutton.copy", "args": {"text": ""}}"#, .actionArguments, "args.text", .error, "is empty"),
        (
            #"{"action": "pushbutton.copy", "args": {"text": "1", "txt": "2"}}"#, .actionArguments, "args.txt",
            .warning, "did you mean 'text'?"
        ),
        (
            #"{"action": "pushbutton.rate_app", "args": {"stars": 5}}"#, .actionArguments, "args.stars", .warning,
            "takes no arguments"
        ),
        (
            #"{"action": "pushbutton.deeplink", "args": {"url": "chatter://m/1", "uri": "x"}}"#, .actionArguments,
            "args.uri", .warning, "did you mean 'url'?"
        ),
        (
            #"{"action": "pushbutton.callback", "args": {"url": "https://api.test/x", "methd": "PUT"}}"#,
            .actionArguments, "args.methd", .warning, "did you mean 'method'?"
        ),
        (
            #"{"action": "pushbutton.open_url", "args": {"url": "https://x.test", "target": "safari"}}"#,
            .actionArguments, "args.target", .warning, "its arguments are url"
        ),
        (
            #"{"action": "pushbutton.open_settings", "args": {"page": "notification"}}"#, .actionArguments, "args.page",
            .error, "did you mean 'notifications'?"
        ),
        (
            #"{"action": "pushbutton.open_settings", "args": {"page": 1}}"#, .actionArguments, "args.page", .error,
            "must be a string"
        ),
        (
            #"{"action": "pushbutton.request_permission", "args": {"options": "alert"}}"#, .actionArguments,
            "args.options", .error, "array of strings"
        ),
        (
            #"{"action": "pushbutton.request_permission", "args": {"options": []}}"#, .actionArguments, "args.options",
            .error, "ask for nothing"
        ),
        (
            #"{"action": "pushbutton.request_permission", "args": {"options": ["alert", "sounds"]}}"#, .actionArguments,
            "args.options[1]", .error, "did you mean 'sound'?"
        ),
        (
            #"{"action": "pushbutton.request_permission", "args": {"options": ["alert", "alert"]}}"#, .actionArguments,
            "args.options[1]", .warning, "twice"
        ),
        (
            #"{"action": "pushbutton.request_permission", "args": {"options": ["critical_alert"]}}"#, .actionArguments,
            "args.options[0]", .note, "entitlement"
        ),
        (#"{"action": "pushbutton.share"}"#, .actionArguments, "args", .error, "'text', 'url' or both"),
        (
            #"{"action": "pushbutton.share", "args": {"url": "chatter://m/42"}}"#, .actionArguments, "args.url", .error,
            "not http or https"
        ),
        (
            #"{"action": "pushbutton.share", "args": {"url": "example.com"}}"#, .actionArguments, "args.url", .error,
            "no scheme"
        ),
        (
            #"{"action": "pushbutton.share", "args": {"text": ["a"]}}"#, .actionArguments, "args.text", .error,
            "not an array"
        ),
        (#"{"action": "pushbutton.add_tag"}"#, .actionArguments, "args", .error, "needs 'tag'"),
        (
            #"{"action": "pushbutton.add_tag", "args": {"tag": "a", "tags": ["b"]}}"#, .actionArguments, "args", .error,
            "not both"
        ),
        (
            #"{"action": "pushbutton.add_tag", "args": {"tag": "two words"}}"#, .invalidTag, "args.tag", .error,
            "whitespace"
        ),
        (#"{"action": "pushbutton.add_tag", "args": {"tag": "café"}}"#, .invalidTag, "args.tag", .error, "'é'"),
        (
            #"{"action": "pushbutton.remove_tag", "args": {"tags": ["a", 7]}}"#, .invalidTag, "args.tags[1]", .error,
            "not a number"
        ),
        (
            #"{"action": "pushbutton.remove_tag", "args": {"tags": ["a", "a"]}}"#, .invalidTag, "args.tags[1]",
            .warning, "twice"
        ),
        (
            #"{"action": "pushbutton.remove_tag", "args": {"tags": []}}"#, .actionArguments, "args.tags", .error,
            "nothing would change"
        ),
        (
            #"{"action": "pushbutton.remove_tag", "args": {"tags": "a"}}"#, .actionArguments, "args.tags", .error,
            "use 'tag' for one"
        ),
        (
            #"{"action": "pushbutton.add_tag", "args": {"tag": "\#(String(repeating: "x", count: 65))"}}"#, .invalidTag,
            "args.tag", .error, "at most 64"
        ),
        (#"{"action": "pushbutton.group"}"#, .actionArguments, "args.actions", .error, "needs an 'actions'"),
        (
            #"{"action": "pushbutton.group", "args": {"actions": {}}}"#, .actionArguments, "args.actions", .error,
            "not an object"
        ),
        (#"{"action": "pushbutton.group", "args": {"actions": []}}"#, .groupLimits, "args.actions", .error, "empty"),
        (
            #"{"action": "pushbutton.group", "args": {"actions": [{"action": "a"}]}}"#, .groupLimits, "args.actions",
            .note, "use the action itself"
        ),
        (
            #"{"action": "pushbutton.group", "args": {"actions": [1]}}"#, .typeMismatch, "args.actions[0]", .error,
            "not a number"
        ),
        (
            #"{"action": "pushbutton.group", "args": {"actions": [{"args": {}}]}}"#, .missingField,
            "args.actions[0].action", .error, "no 'action'"
        ),
        (
            #"{"action": "pushbutton.group", "args": {"actions": [{"action": "a", "arg": {}}]}}"#, .unknownKey,
            "args.actions[0].arg", .warning, "did you mean 'args'?"
        ),
        (
            #"{"action": "pushbutton.group", "args": {"actions": [{"action": "a", "args": []}]}}"#, .typeMismatch,
            "args.actions[0].args", .error, "must be an object"
        ),
        (
            #"{"action": "pushbutton.group", "args": {"actions": [{"action": "pushbutton.copy"}]}}"#, .actionArguments,
            "args.actions[0].args.text", .error, "needs a 'text'"
        ),
        (
            #"{"action": "pushbutton.group", "args": {"actions": [{"action": "pushbutton.cpy"}]}}"#,
            .unknownBuiltinAction, "args.actions[0].action", .error, "did you mean 'pushbutton.copy'?"
        ),
    ])
    func argumentRules(
        action: String, code: Diagnostic.Code, path: String, severity: Diagnostic.Severity, says: String
    ) throws {
        let found = Self.diagnostics("accept", action)
        let diagnostic = try #require(
            found.first { $0.code == code && $0.path.description == "pushbutton.buttons.accept[0]." + path },
            "no \(code) at \(path) in \(found)")
        #expect(diagnostic.severity == severity)
        #expect((diagnostic.message + " " + (diagnostic.hint ?? "")).contains(says), "\(diagnostic)")
        #expect(diagnostic.location != nil)
    }

    @Test func groupsHaveASizeAndADepthLimit() throws {
        let member = #"{"action": "pushbutton.dismiss"}"#
        let big = Array(repeating: member, count: BuiltinAction.maximumGroupSize + 1).joined(separator: ", ")
        let tooBig = Self.diagnostics("accept", #"{"action": "pushbutton.group", "args": {"actions": [\#(big)]}}"#)
        #expect(tooBig.map(\.code) == [.groupLimits] && tooBig.first?.message.contains("9 actions; at most 8") == true)

        func nested(_ depth: Int) -> String {
            var action = member
            for _ in 0..<depth {
                action = #"{"action": "pushbutton.group", "args": {"actions": [\#(action), \#(member)]}}"#
            }
            return action
        }
        #expect(Self.diagnostics("accept", nested(BuiltinAction.maximumGroupDepth)) == [])
        let tooDeep = Self.diagnostics("accept", nested(BuiltinAction.maximumGroupDepth + 1))
        let diagnostic = try #require(tooDeep.first)
        #expect(tooDeep.map(\.code) == [.groupLimits])
        #expect(diagnostic.message == "groups are nested 4 deep; at most 3 are allowed")
        #expect(
            diagnostic.path.description
                == "pushbutton.buttons.accept[0].args.actions[0].args.actions[0].args.actions[0].args.actions")
    }

    @Test func withoutAManifestTheArgumentsAreStillChecked() {
        let text =
            #"{"aps": {"alert": "x", "category": "anything"}, "pushbutton": {"v": 1, "buttons": {"b": [{"action": "pushbutton.add_tag", "args": {"tag": "a b"}}]}}}"#
        let found = PayloadValidator().validate(jsonBytes: Array(text.utf8)).diagnostics
        #expect(found.map(\.code) == [.invalidTag])
    }

    @Test func everyBuiltinIsRecognisedByNameAndDescribed() {
        #expect(ActionSpec.Builtin.allCases.count == BuiltinAction.all.count)
        for builtin in ActionSpec.Builtin.allCases {
            #expect(ActionSpec(builtin.rawValue).builtin == builtin)
            #expect(builtin.info.builtin == builtin && !builtin.info.summary.isEmpty)
            // Near misses are not built-ins.
            #expect(ActionSpec(builtin.rawValue + "s").builtin == nil)
            #expect(ActionSpec(String(builtin.rawValue.dropLast())).builtin == nil)
        }
        #expect(ActionSpec.builtinNames.count == 12 && Set(ActionSpec.builtinNames).count == 12)
        #expect(
            ActionSpec("pushbutton.group", arguments: ["actions": [["action": "pushbutton.share"]]]).needsForeground)
        #expect(
            !ActionSpec("pushbutton.group", arguments: ["actions": [["action": "pushbutton.add_tag"]]]).needsForeground)
    }

    @Test func thePayloadFormatArticleDocumentsEveryBuiltinAction() throws {
        let article = try String(
            contentsOf: TestFiles.packageRoot.appendingPathComponent(
                "Sources/Pushbutton/Pushbutton.docc/PayloadFormat.md"),
            encoding: .utf8)
        let lines = article.split(separator: "\n")
        let headings = lines.filter { $0.hasPrefix("### ") }
        for name in ActionSpec.builtinNames {
            #expect(lines.contains { $0.hasPrefix("| `\(name)` |") }, "no table row for \(name)")
        }
        let older: Set<ActionSpec.Builtin> = [.deepLink, .openURL, .dismiss, .callback]
        for builtin in ActionSpec.Builtin.allCases where !older.contains(builtin) {
            #expect(headings.contains { $0.contains("`\(builtin.rawValue)`") }, "no section for \(builtin.rawValue)")
        }
    }

    @Test func tagSyntax() {
        #expect(BuiltinAction.tagProblem("plan:premium") == nil)
        #expect(BuiltinAction.tagProblem(String(repeating: "a", count: 64)) == nil)
        #expect(BuiltinAction.tagProblem("") == "a tag cannot be empty")
        #expect(BuiltinAction.tagProblem("a/b")?.contains("'/'") == true)
        #expect(BuiltinAction.tagProblem("日本")?.contains("'日'") == true)
    }
}
