import Foundation
import Pushbutton
import PushbuttonAPNsMock
import PushbuttonStore
import PushbuttonSupport
import PushbuttonTestSupport
import Testing

@testable import PushbuttonGateway

/// Issue 36's compose form over HTTP (curl) and as values: "Add a variant" (a form submit, no script) draws the
/// form again with a copy, a two-variant experiment with a holdout is sent to an uploaded list and the mock gets
/// each device's variant as ``ExperimentAssignment`` places it, a bad variant field's diagnostic lands beside
/// that field, and the preview has a tab per variant.
@Suite(.timeLimit(.minutes(3)))
struct ConsoleExperimentTests {
    typealias F = ConsoleFixture

    static func fields(_ pairs: [String]) -> [String] { pairs.flatMap { ["-F", $0] } }

    /// The main notification: Like calls back.
    static let main = [
        "category=message", "title=Lunch?", "body=At noon", "action.like=pushbutton.callback",
        #"args.like={"url": "https://api.example.com/like"}"#,
    ]

    /// The value of the input named `name` in a page.
    static func value(_ name: String, in page: String) -> String? {
        guard let start = page.range(of: "name=\"\(name)\" value=\"") else { return nil }
        let rest = page[start.upperBound...]
        return String(rest[..<(rest.firstIndex(of: "\"") ?? rest.endIndex)])
    }

    @Test func addingAVariantDrawsTheFormAgainWithACopy() async throws {
        let fixture = try await ConsoleFixture()
        defer { Task { await fixture.stop() } }
        let (jar, csrf) = try await fixture.signIn()
        let first = try await fixture.curl(
            "POST", "/console/compose", jar: jar,
            arguments: Self.fields(["csrf=\(csrf)", "intent=add_variant"] + Self.main))
        #expect(first.status == 200)
        let page = first.body
        #expect(Self.value("variants[0].name", in: page) == "A" && Self.value("variants[1].name", in: page) == "B")
        #expect(Self.value("variants[0].share", in: page) == "50" && Self.value("variants[1].share", in: page) == "50")
        // B starts as a copy of the notification: its category, title, body and Like's action and arguments.
        #expect(Self.value("variants[1].title", in: page) == "Lunch?")
        #expect(
            page.contains(#"name="variants[1].body" rows="2" class="body""#) && page.contains(">At noon</textarea>"))
        let action = try #require(page.range(of: #"name="variants[1].action.like""#))
        #expect(page[action.upperBound...].prefix(2000).contains(#"value="pushbutton.callback" selected"#))
        #expect(
            page.components(separatedBy: "{&quot;url&quot;: &quot;https://api.example.com/like&quot;}</textarea>")
                .count == 3, "the arguments in A's (the form's) and in B's fields")
        // The preview has a tab per variant, B's chosen; each frame draws its variant.
        #expect(page.contains(#"id="vtab-0""#) && page.contains(#"id="vtab-1" checked"#))
        #expect(page.contains(#"id="preview-variant-1""#) && page.contains(#"id="preview""#))

        // A third variant copies B (with B's own title), the shares spread again; removing one ends at two.
        let third = try await fixture.curl(
            "POST", "/console/compose", jar: jar,
            arguments: Self.fields(
                ["csrf=\(csrf)", "intent=add_variant"] + Self.main + [
                    "variants[0].name=A", "variants[0].share=50", "variants[1].name=B", "variants[1].share=50",
                    "variants[1].category=message", "variants[1].title=Hungry?", "variants[1].body=At noon",
                    "holdout=10",
                ]))
        #expect(Self.value("variants[2].name", in: third.body) == "C")
        #expect(Self.value("variants[2].title", in: third.body) == "Hungry?")
        #expect(
            [0, 1, 2].map { Self.value("variants[\($0)].share", in: third.body) } == ["30", "30", "30"],
            "90% left by the holdout, spread")
        #expect(third.body.contains(">Variant C</label>"))
        let removed = try await fixture.curl(
            "POST", "/console/compose", jar: jar,
            arguments: Self.fields(
                ["csrf=\(csrf)", "intent=remove_variant.1"] + Self.main + [
                    "variants[0].name=A", "variants[0].share=50", "variants[1].name=B", "variants[1].share=50",
                ]))
        #expect(!removed.body.contains(#"name="variants[0].name""#), "one variant left: no experiment")
        #expect(removed.body.contains(#"id="add-variant""#) && !removed.body.contains(#"id="vtab-0""#))
    }

    @Test func aTwoVariantExperimentWithAHoldoutIsSentAsTheAssignmentPlacesEachDevice() async throws {
        let fixture = try await ConsoleFixture()
        defer { Task { await fixture.stop() } }
        let (jar, csrf) = try await fixture.signIn()
        let tokens = (100..<160).map(F.token)
        for token in tokens { fixture.mock.registry.register(token: token, topic: F.topic) }
        let list = fixture.directory + "/recipients.txt"
        try tokens.joined(separator: "\n").write(toFile: list, atomically: true, encoding: .utf8)
        let sent = try await fixture.curl(
            "POST", "/console/compose", jar: jar,
            arguments: Self.fields(
                ["csrf=\(csrf)", "intent=send"] + Self.main + [
                    "to=list", "recipients=@\(list)", "variants[0].name=A", "variants[0].share=40",
                    "variants[1].name=B", "variants[1].share=40", "variants[1].category=friend_request",
                    "variants[1].title=Join us", "variants[1].body=Lunch with the team",
                    "variants[1].action.accept=pushbutton.open_url",
                    #"variants[1].args.accept={"url": "https://example.com/lunch"}"#, "holdout=20",
                    "metric=any_button",
                ]))
        #expect(sent.status == 303, "\(sent.body)")
        let location = try #require(sent.headers["location"])
        let id = String(location.dropFirst("/console/campaigns/".count))
        #expect(id.hasPrefix("c_"))

        // The experiment the header asked for is stored.
        let store = try #require(fixture.gateway.store as? any ExperimentStore)
        let record = try #require(try store.experiment(campaign: id))
        #expect(record.variants == ["A", "B"] && record.control == "A" && record.defaultVariant == "A")
        #expect(record.metric == "any_button" && record.state == .running)

        // The mock gets each device's variant as the assignment places it, the holdout nothing.
        let assignment = ExperimentAssignment(experiment: id, shares: [40, 40], testShare: nil)
        var expected: [String: String] = [:]
        for token in tokens {
            if case .variant(let index) = assignment.place(of: token) { expected[token] = ["A", "B"][index] }
        }
        #expect(Set(expected.values) == ["A", "B"] && expected.count < tokens.count, "both variants and a holdout")
        await yieldUntil { Self.sent(fixture.mock.notifications.map(\.payload), campaign: id) >= expected.count }
        await fixture.mock.deliveriesSettled()
        var got: [String: String] = [:]
        for notification in fixture.mock.notifications {
            let payload = try JSONParser.parse(notification.payload).objectValue
            let actions = payload?["pushbutton"]?.objectValue
            guard actions?["campaign"]?.stringValue == id else { continue }
            let variant = actions?["variant"]?.stringValue
            #expect(got[notification.deviceToken] == nil, "one notification a device")
            got[notification.deviceToken] = variant
            let aps = payload?["aps"]?.objectValue
            let alert = aps?["alert"]?.objectValue
            if variant == "B" {
                #expect(aps?["category"] == "friend_request" && alert?["title"] == "Join us")
                #expect(actions?["buttons"]?.objectValue?["accept"] != nil)
            } else {
                #expect(aps?["category"] == "message" && alert?["title"] == "Lunch?")
                #expect(actions?["buttons"]?.objectValue?["like"] != nil)
            }
        }
        #expect(got == expected)
    }

    /// How many of the payloads belong to the campaign.
    static func sent(_ payloads: [[UInt8]], campaign: String) -> Int {
        payloads.count { payload in
            (try? JSONParser.parse(payload))?.objectValue?["pushbutton"]?.objectValue?["campaign"]?.stringValue
                == campaign
        }
    }

    @Test func aBadVariantFieldsDiagnosticLandsBesideThatField() async throws {
        let fixture = try await ConsoleFixture()
        defer { Task { await fixture.stop() } }
        let (jar, csrf) = try await fixture.signIn()
        let list = fixture.directory + "/recipients.txt"
        try F.token(1).write(toFile: list, atomically: true, encoding: .utf8)
        let variants = [
            "to=list", "recipients=@\(list)", "variants[0].name=A", "variants[0].share=50", "variants[1].name=B",
            "variants[1].category=message", "variants[1].body=At one",
        ]
        func send(_ extra: [String]) async throws -> (status: Int, body: String) {
            let reply = try await fixture.curl(
                "POST", "/console/compose", jar: jar,
                arguments: Self.fields(["csrf=\(csrf)", "intent=send"] + Self.main + variants + extra))
            return (reply.status, reply.body)
        }
        // The compiled variant's problem (its button's URL), at B's button.
        let url = try await send([
            "variants[1].share=50", "variants[1].action.like=pushbutton.open_url",
            #"variants[1].args.like={"url": "notaurl"}"#,
        ])
        #expect(url.status == 422 && url.body.contains("nothing was sent"))
        #expect(
            ConsoleLeverTests.slot("variants[1].button.like", in: url.body).contains("is not a URL"), "\(url.body)")
        #expect(
            url.body.contains(
                #"data-field="variants[1].button.like" aria-describedby="diag-variants[1].button.like" aria-invalid="true""#
            ))
        // The reader's: a share out of range beside the share, the sum beside the list.
        let share = try await send(["variants[1].share=0", "control=Z"])
        #expect(ConsoleLeverTests.slot("variants[1].share", in: share.body).contains("whole percent from 1 to 100"))
        #expect(ConsoleLeverTests.slot("variants", in: share.body).contains("add up to 50"))
        #expect(ConsoleLeverTests.slot("control", in: share.body).contains("must name one of the variants"))
        // The metric's button missing in B's category: at B's category.
        let metric = try await send([
            "variants[1].share=50", "variants[1].category=friend_request", "metric=button:like",
        ])
        #expect(
            ConsoleLeverTests.slot("variants[1].category", in: metric.body).contains("needs a button &#39;like&#39;"),
            "\(metric.body)")
        // An experiment to one device is refused at the variants: it is a campaign.
        let single = try await fixture.curl(
            "POST", "/console/compose", jar: jar,
            arguments: Self.fields(
                ["csrf=\(csrf)", "intent=send", "to=token", "to_token=\(F.token(1))"] + Self.main + [
                    "variants[0].name=A", "variants[0].share=50", "variants[1].name=B", "variants[1].share=50",
                    "variants[1].category=message", "variants[1].body=x",
                ]))
        #expect(single.status == 422 && ConsoleLeverTests.slot("variants", in: single.body).contains("recipient list"))
        #expect(fixture.mock.notifications.isEmpty, "nothing was sent")
    }

    @Test func thePreviewEndpointDrawsEachVariant() async throws {
        let fixture = try await ConsoleFixture()
        defer { Task { await fixture.stop() } }
        let (jar, csrf) = try await fixture.signIn()
        var arguments = ["-H", "X-CSRF-Token: \(csrf)"]
        for field in Self.main + [
            "to=list", "variants[0].name=A", "variants[0].share=50", "variants[1].name=B", "variants[1].share=50",
            "variants[1].category=friend_request", "variants[1].title=Join us", "variants[1].body=x",
        ] {
            arguments += ["--data-urlencode", field]
        }
        let reply = try await fixture.curl("POST", "/console/preview", jar: jar, arguments: arguments)
        let json = try JSONParser.parse(reply.body).objectValue
        let variants = json?["variants"]?.arrayValue?.compactMap(\.objectValue) ?? []
        #expect(variants.map { $0["name"] } == ["A", "B"], "\(reply.body)")
        #expect(variants.first?["html"]?.stringValue?.contains(#"<p class="title">Lunch?</p>"#) == true)
        #expect(variants.last?["html"]?.stringValue?.contains(#"<p class="title">Join us</p>"#) == true)
        #expect(variants.last?["html"]?.stringValue?.contains("Accept") == true)
        let errors = json?["diagnostics"]?.arrayValue?.filter { $0.objectValue?["severity"] == "error" } ?? []
        #expect(errors.isEmpty, "\(errors)")
    }

    @Test func variantPathsNameTheirFields() {
        func field(_ components: [JSONPath.Component]) -> String {
            ComposeForm.field(of: JSONPath(components: components))
        }
        #expect(field([.key("variants")]) == "variants")
        #expect(field([.key("variants"), .index(1), .key("title")]) == "variants[1].title")
        #expect(field([.key("variants"), .index(2), .key("share")]) == "variants[2].share")
        #expect(
            field([.key("variants"), .index(1), .key("buttons"), .key("like"), .index(0), .key("args")])
                == "variants[1].button.like")
        #expect(field([.key("variants"), .index(1), .key("localized")]) == "variants[1]")
        for key in ["holdout", "test_share", "decide_after", "metric", "control", "default_variant"] {
            #expect(field([.key(key)]) == key)
        }
        #expect(ComposeExperiment.nextName(after: ["A", "B"]) == "C")
    }
}
