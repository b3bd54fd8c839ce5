import Foundation
import Pushbutton
import Testing

/// `pushbutton payload` and `pushbutton lint MANIFEST PAYLOAD...`, run as a user would.
@Suite(.timeLimit(.minutes(5))) struct PayloadCommandTests {
    @Test func buildsAnInteractivePayloadFromFlags() async throws {
        let result = try await CLI.run([
            "payload", "--category", "message", "--title", "Anna", "--body", "Lunch?", "--badge", "2", "--sound",
            "default",
            "--button", #"like=pushbutton.callback:{"url":"https://api.example.com/like"}"#,
            "--body-action", #"pushbutton.deeplink:{"url":"chatter://m/1"}"#, "--arg", "id=42", "--arg", "who=anna",
            "--custom", #"conversation={"id":7}"#, "--manifest", "Examples/manifest.json",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let value = try JSONParser.parse(result.stdout)
        #expect(value["aps"]?["alert"] == ["title": "Anna", "body": "Lunch?"])
        #expect(value["aps"]?["badge"] == 2 && value["aps"]?["category"] == "message")
        #expect(value["action_args"] == ["id": 42, "who": "anna"])
        #expect(value["conversation"] == ["id": 7])
        #expect(value["pushbutton"]?["buttons"]?["like"]?.arrayValue?.first?["action"] == "pushbutton.callback")
        #expect(value["pushbutton"]?["body"]?.arrayValue?.count == 1)
    }

    @Test func dynamicButtonsGetTheirDerivedCategory() async throws {
        let result = try await CLI.run([
            "payload", "--body", "Party?", "--define", "going=Going: Friday", "--define",
            "no=No:authenticationRequired",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let value = try JSONParser.parse(result.stdout)
        let buttons = [
            DynamicButton("going", title: "Going: Friday"),
            DynamicButton("no", title: "No", options: .authenticationRequired),
        ]
        #expect(value["aps"]?["category"] == .string(DynamicCategories.identifier(for: buttons)))
    }

    @Test func validationFailuresExitOneAndSayWhy() async throws {
        let result = try await CLI.run([
            "payload", "--category", "message", "--body", "x", "--button",
            #"like=pushbutton.open_url:{"url":"https://x.test"}"#,
            "--manifest", "Examples/manifest.json",
        ])
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("[background-open]"))
        #expect(
            result.stderr.hasSuffix(
                "pushbutton: error: the payload does not pass validation against Examples/manifest.json (see above)\n"))
    }

    @Test(arguments: [
        (["payload", "--button", "like"], "--button 'like' is not of the form ID=ACTION[:ARGS_JSON]"),
        (["payload", "--button", "like=a:{"], "--button a: the arguments are not JSON"),
        (["payload", "--badge", "two"], "--badge 'two' is not a whole number"),
        (["payload", "--custom", "x=hello"], "--custom x:"),
        (["payload", "--custom", "aps={}"], "--custom cannot set 'aps'"),
        (["payload", "--define", "a=A:sideways"], "'sideways' is not an action option"),
    ])
    func wrongFlagsAreUsageErrors(arguments: [String], message: String) async throws {
        let result = try await CLI.run(arguments)
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("pushbutton: error: ") && result.stderr.contains(message), "\(result.stderr)")
    }

    @Test func truncationIsOptIn() async throws {
        let body = String(repeating: "é", count: 3000)
        let tooBig = try await CLI.run([
            "payload", "--category", "message", "--body", body, "--manifest", "Examples/manifest.json",
        ])
        #expect(tooBig.status == 1 && tooBig.stderr.contains("[payload-too-large]"))
        let truncated = try await CLI.run([
            "payload", "--category", "message", "--body", body, "--truncate", "--manifest", "Examples/manifest.json",
        ])
        #expect(truncated.status == 0)
        #expect(truncated.stdout.utf8.count - 1 <= 4096)
        #expect(try JSONParser.parse(truncated.stdout)["aps"]?["alert"]?["body"]?.stringValue?.hasSuffix("é…") == true)
    }

    @Test func lintChecksPayloadFilesAgainstTheManifest() async throws {
        let good = try await CLI.run([
            "lint", "Examples/manifest.json", "Examples/payloads/message.json", "Examples/payloads/dynamic.json",
        ])
        #expect(good.status == 0)
        #expect(good.stdout.contains("Examples/payloads/message.json: 0 errors, 0 warnings, 0 notes"))
        let bad = try await CLI.run(["lint", "Examples/manifest.json", "Examples/payloads/broken.json"])
        #expect(bad.status == 1)
        #expect(
            bad.stdout.contains(
                "Examples/payloads/broken.json:2:59: error: aps.category: category 'order_shiped' is not declared in the manifest"
            ))
        #expect(bad.stdout.contains("hint: did you mean 'order_shipped'?"))
    }

    @Test func lintReadsAPayloadFromStandardInputAndHonoursThePushType() async throws {
        let result = try await CLI.run(
            ["lint", "--push-type", "background", "--priority", "10", "Examples/manifest.json", "-"],
            stdin: #"{"aps": {"content-available": 1}}"#)
        #expect(result.status == 1)
        #expect(result.stdout.contains("<stdin>:1:10: error: aps.content-available: a background push"))
        #expect(
            try await CLI.run(["lint", "--priority", "high", "Examples/manifest.json", "-"], stdin: "{}").status == 2)
    }

    @Test func aBrokenManifestStopsPayloadChecks() async throws {
        let result = try await CLI.run(["lint", "Examples/broken-manifest.json", "Examples/payloads/message.json"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("has errors, so the payloads were not checked"))
    }
}

/// `payload --media URL [--media-type T]`.
struct PayloadMediaCommandTests {
    @Test func mediaIsWrittenWithMutableContentAndItsTypeFromTheURL() async throws {
        let result = try await CLI.run(["payload", "--body", "Sale", "--media", "https://cdn.example.com/sale.png"])
        #expect(result.status == 0, "\(result.stderr)")
        let value = try JSONParser.parse(result.stdout)
        #expect(value["aps"]?["mutable-content"] == 1)
        #expect(value["pushbutton"]?["media"]?["type"] == "image")
        #expect(value["pushbutton"]?["media"]?["url"] == "https://cdn.example.com/sale.png")
    }

    @Test func anExplicitTypeWinsAndAPlainHTTPURLIsWarnedAbout() async throws {
        let result = try await CLI.run([
            "payload", "--body", "Listen", "--media", "http://cdn.example.com/clip", "--media-type", "audio",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try JSONParser.parse(result.stdout)["pushbutton"]?["media"]?["type"] == "audio")
        #expect(result.stderr.contains("pushbutton.media.url") && result.stderr.contains("https"), "\(result.stderr)")
    }

    @Test(arguments: [
        (["payload", "--body", "x", "--media", "https://cdn.example.com/file"], "add --media-type"),
        (["payload", "--body", "x", "--media-type", "image"], "--media-type needs --media"),
        (["payload", "--body", "x", "--media", "https://a.example/a.jpg", "--media-type", "photo"], "is not one of"),
    ])
    func wrongMediaFlagsAreUsageErrors(arguments: [String], message: String) async throws {
        let result = try await CLI.run(arguments)
        #expect(result.status == 2)
        #expect(result.stderr.contains(message), "\(result.stderr)")
    }
}
