import Foundation
import Pushbutton
import Testing

/// The built-in actions from the command line: `builtins --actions`, `payload --button ID=ACTION:ARGS`, and
/// what `simulate` tells of a tap that runs them.
@Suite(.timeLimit(.minutes(5))) struct BuiltinActionCommandTests {
    @Test func builtinsListsEveryActionWithItsArgumentsAndSituation() async throws {
        let result = try await CLI.run(["builtins", "--actions"])
        #expect(result.status == 0 && result.stderr.isEmpty)
        for name in ActionSpec.builtinNames {
            #expect(result.stdout.contains("\n" + name + "  ") || result.stdout.hasPrefix(name))
        }
        #expect(result.stdout.contains("pushbutton.copy  (foreground only)  Puts text on the pasteboard."))
        #expect(result.stdout.contains("pushbutton.add_tag  (anywhere)"))
        #expect(result.stdout.contains("    text  string, required: The text to copy."))
        #expect(result.stdout.contains("    (at least one of tag, tags)"))
        #expect(result.stdout.hasSuffix("12 built-in actions. Any other action name is one the app registers.\n"))
    }

    @Test func builtinsActionsJSONDescribesEachAction() async throws {
        let result = try await CLI.run(["builtins", "--actions", "--json"])
        #expect(result.status == 0)
        let actions = try #require(try JSONParser.parse(result.stdout).arrayValue)
        #expect(actions.compactMap { $0["name"]?.stringValue } == ActionSpec.builtinNames)
        let share = try #require(actions.first { $0["name"] == "pushbutton.share" })
        #expect(share["foregroundOnly"] == true && share["oneOf"] == [["text", "url"]])
        #expect(share["arguments"]?.arrayValue?.map { $0["name"] } == ["text", "url"])
        let group = try #require(actions.first { $0["name"] == "pushbutton.group" })
        #expect(group["foregroundOnly"] == false && group["arguments"]?.arrayValue?.first?["required"] == true)
    }

    @Test func payloadAcceptsTheNewActionsOnAButton() async throws {
        let result = try await CLI.run([
            "payload", "--manifest", "Examples/manifest.json", "--category", "friend_request", "--title", "Ben",
            "--body", "wants to be friends",
            "--button", #"accept=pushbutton.add_tag:{"tags":["friend:ben","social"]}"#,
            "--button", #"accept=pushbutton.share:{"url":"https://example.com/u/ben"}"#,
            "--button", #"ignore=pushbutton.remove_tag:{"tag":"social"}"#,
            "--body-action",
            #"pushbutton.group:{"actions":[{"action":"pushbutton.rate_app"},{"action":"pushbutton.open_settings","args":{"page":"notifications"}}]}"#,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty)
        let value = try JSONParser.parse(result.stdout)
        #expect(
            value["pushbutton"]?["buttons"]?["accept"]?.arrayValue?.map { $0["action"] } == [
                "pushbutton.add_tag", "pushbutton.share",
            ])
        #expect(value["pushbutton"]?["body"]?.arrayValue?.first?["args"]?["actions"]?.arrayValue?.count == 2)
    }

    @Test func payloadRefusesAForegroundOnlyActionOnABackgroundButton() async throws {
        let result = try await CLI.run([
            "payload", "--manifest", "Examples/manifest.json", "--category", "message", "--title", "Anna", "--body",
            "Hi",
            "--button", #"like=pushbutton.copy:{"text":"42"}"#,
        ])
        #expect(result.status == 1 && result.stdout.isEmpty)
        #expect(
            result.stderr.contains(
                "error: pushbutton.buttons.like[0].action: pushbutton.copy writes to the pasteboard, which iOS refuses "
                    + "to an app in the background, but button 'like' runs in the background"))
        #expect(result.stderr.contains("[background-ui]"))
        #expect(result.stderr.contains(#"hint: give the button the "foreground" option in the manifest"#))
    }

    @Test func lintLocatesABadTagInAPayloadFile() async throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("tags.json")
        try Data(
            """
            {"aps": {"alert": "x", "category": "message"},
             "pushbutton": {"v": 1, "buttons": {"like": [
               {"action": "pushbutton.add_tag", "args": {"tags": ["ok", "not ok"]}}]}}}
            """.utf8
        ).write(to: file)
        let result = try await CLI.run(["lint", "Examples/manifest.json", file.path])
        #expect(result.status == 1)
        #expect(
            result.stdout.contains("tags.json:3:61: error: pushbutton.buttons.like[0].args.tags[1]"), "\(result.stdout)"
        )
        #expect(result.stdout.contains("'not ok' contains whitespace") && result.stdout.contains("[invalid-tag]"))
    }

    @Test func simulateTellsWhatEachActionDidOnTheDevice() async throws {
        let payload = try await CLI.run([
            "payload", "--manifest", "Examples/manifest.json", "--category", "friend_request", "--title", "Ben",
            "--body", "wants to be friends", "--button",
            #"accept=pushbutton.group:{"actions":[{"action":"pushbutton.add_tag","args":{"tags":["friend:ben","social"]}},{"action":"pushbutton.copy","args":{"text":"ben42"}},{"action":"pushbutton.share","args":{"text":"Ben","url":"https://example.com/u/ben"}},{"action":"pushbutton.open_settings"},{"action":"pushbutton.rate_app"},{"action":"pushbutton.request_permission"}]}"#,
        ])
        #expect(payload.status == 0, "\(payload.stderr)")
        let result = try await CLI.run(
            ["simulate", "-", "--manifest", "Examples/manifest.json", "--tap", "accept"], stdin: payload.stdout)
        #expect(result.status == 0, "\(result.stderr)")
        for line in [
            "→ device tags now: friend:ben, social", "→ copied “ben42” to the pasteboard",
            "→ showed the share sheet with “Ben” and https://example.com/u/ben", "→ opened the app's page in Settings",
            "→ asked the system for the App Store rating prompt",
            "→ pushbutton.request_permission: notifications allowed",
        ] {
            #expect(result.stdout.contains(line), "\(line) in \(result.stdout)")
        }
    }
}
