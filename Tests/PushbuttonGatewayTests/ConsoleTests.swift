import Foundation
import Pushbutton
import PushbuttonSupport
import PushbuttonTestSupport
import Testing

@testable import PushbuttonGateway

/// The console over HTTP (curl): sign-in and its cookie, CSRF and cross-site refusals, the preview endpoint's
/// diagnostics, a campaign sent from an uploaded list, the campaign and device pages, and the device summary API.
@Suite(.timeLimit(.minutes(3)))
struct ConsoleTests {
    typealias F = ConsoleFixture

    @Test func signInSetsAStrictHttpOnlyCookieAndNeverEchoesTheKey() async throws {
        let fixture = try await ConsoleFixture()
        defer { Task { await fixture.stop() } }
        let anonymous = try await fixture.curl("GET", "/console/compose")
        #expect(anonymous.status == 303 && anonymous.headers["location"] == "/console/login")
        let page = try await fixture.curl("GET", "/console/login")
        #expect(page.status == 200 && page.body.contains(#"type="password" id="key" name="key""#))
        #expect(page.headers["content-security-policy"]?.contains("script-src 'self'") == true)
        #expect(page.headers["x-frame-options"] == "DENY")

        for wrong in ["pb_sk_wrong", F.publishable] {
            let refused = try await fixture.curl(
                "POST", "/console/login", arguments: ["--data-urlencode", "key=\(wrong)"])
            #expect(refused.status == 401 && refused.headers["set-cookie"] == nil)
            #expect(!refused.body.contains(wrong))
        }
        let forged = try await fixture.curl(
            "POST", "/console/login",
            arguments: ["-H", "Sec-Fetch-Site: cross-site", "--data-urlencode", "key=\(F.secret)"])
        #expect(forged.status == 403 && forged.headers["set-cookie"] == nil)
        let jar = fixture.directory + "/jar.txt"
        let login = try await fixture.curl(
            "POST", "/console/login", jar: jar, arguments: ["--data-urlencode", "key=\(F.secret)"])
        #expect(login.status == 303 && login.headers["location"] == "/console/compose")
        let cookie = try #require(login.headers["set-cookie"])
        #expect(cookie.hasPrefix("pb_console=") && cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict"))
        #expect(cookie.contains("Path=/console") && !cookie.contains("Secure"))  // cleartext here: no Secure

        let compose = try await fixture.curl("GET", "/console/compose", jar: jar)
        #expect(compose.status == 200 && compose.body.contains("App: <strong>chat</strong>"))
        #expect(!compose.body.contains(F.secret))
        for label in ["Reply", "Like", "Delete"] { #expect(compose.body.contains("<h3>\(label) ")) }
        #expect(compose.body.contains(#"<label for="title">Title</label>"#))

        // A form from another site is refused even with the cookie; signing out ends the session.
        let csrf = try #require(Self.csrf(in: compose.body))
        let crossSite = try await fixture.curl(
            "POST", "/console/logout", jar: jar,
            arguments: ["-H", "Sec-Fetch-Site: cross-site", "--data-urlencode", "csrf=\(csrf)"])
        #expect(crossSite.status == 403)
        let noToken = try await fixture.curl("POST", "/console/logout", jar: jar, arguments: ["--data", "csrf=nope"])
        #expect(noToken.status == 403)
        let logout = try await fixture.curl(
            "POST", "/console/logout", jar: jar, arguments: ["--data-urlencode", "csrf=\(csrf)"])
        #expect(logout.status == 303 && logout.headers["set-cookie"]?.contains("Max-Age=0") == true)
        let after = try await fixture.curl("GET", "/console/compose", jar: jar)
        #expect(after.status == 303)
    }

    static func csrf(in page: String) -> String? {
        guard let range = page.range(of: #"name="csrf" value=""#),
            let end = page[range.upperBound...].firstIndex(of: "\"")
        else { return nil }
        return String(page[range.upperBound..<end])
    }

    @Test func thePreviewFollowsTheTitleAndPutsABadURLBesideItsButton() async throws {
        let fixture = try await ConsoleFixture()
        defer { Task { await fixture.stop() } }
        let (jar, csrf) = try await fixture.signIn()
        func preview(_ fields: [String], token: String?) async throws -> (status: Int, json: JSONValue?) {
            var arguments = token.map { ["-H", "X-CSRF-Token: \($0)"] } ?? []
            for field in fields { arguments += ["--data-urlencode", field] }
            let reply = try await fixture.curl("POST", "/console/preview", jar: jar, arguments: arguments)
            return (reply.status, try? JSONParser.parse(reply.body))
        }
        let fields = ["category=message", "locale=fr", "title=Anna", "body=Lunch?"]
        #expect(try await preview(fields, token: nil).status == 403)
        let first = try await preview(fields, token: csrf)
        #expect(first.status == 200)
        let html = try #require(first.json?.objectValue?["html"]?.stringValue)
        #expect(html.contains(#"<p class="title">Anna</p>"#) && html.contains(#"<span class="label">Répondre</span>"#))
        #expect(first.json?.objectValue?["buttons"] == .integer(3))

        let changed = try await preview(["category=message", "title=Bob", "body=Lunch?"], token: csrf)
        #expect(changed.json?.objectValue?["html"]?.stringValue?.contains(#"<p class="title">Bob</p>"#) == true)

        let bad = try await preview(
            fields + ["action.like=pushbutton.open_url", #"args.like={"url": "notaurl"}"#, "action_args={"], token: csrf
        )
        let diagnostics = bad.json?.objectValue?["diagnostics"]?.arrayValue ?? []
        let fieldsWithErrors = Set(diagnostics.compactMap { $0.objectValue?["field"]?.stringValue })
        #expect(fieldsWithErrors.contains("button.like") && fieldsWithErrors.contains("action_args"))
        let url = diagnostics.first { $0.objectValue?["path"]?.stringValue == "buttons.like[0].args.url" }
        #expect(url?.objectValue?["message"]?.stringValue?.contains("'notaurl' is not a URL") == true)
        // The page itself draws the same diagnostic beside the button when the form is posted without a script.
        let posted = try await fixture.curl(
            "POST", "/console/compose", jar: jar,
            arguments: [
                "-F", "csrf=\(csrf)", "-F", "intent=send", "-F", "category=message", "-F", "title=Anna", "-F",
                "body=Lunch?", "-F", "action.like=pushbutton.callback", "-F", #"args.like={"url": "notaurl"}"#,
                "-F", "to=token", "-F", "to_token=\(F.token(1))",
            ])
        #expect(posted.status == 422 && posted.body.contains("nothing was sent"))
        let slot = try #require(posted.body.range(of: #"id="diag-button.like""#))
        #expect(
            posted.body[slot.upperBound...].prefix(400).contains("pushbutton.callback needs a &#39;url&#39; argument"))
    }

    @Test func aCampaignFromAnUploadedListHasItsPageChartsAndTheDevicesPageCountsDeadTokens() async throws {
        let fixture = try await ConsoleFixture()
        defer { Task { await fixture.stop() } }
        let (jar, csrf) = try await fixture.signIn()
        let list = fixture.directory + "/recipients.txt"
        try "# the list\n\(F.token(1))\n\(F.token(2))\n{\"token\": \"\(F.token(4))\"}\n".write(
            toFile: list, atomically: true, encoding: .utf8)
        let sent = try await fixture.curl(
            "POST", "/console/compose", jar: jar,
            arguments: [
                "-F", "csrf=\(csrf)", "-F", "intent=send", "-F", "category=message", "-F", "title=Weekly news",
                "-F", "body=Read it", "-F", "action.like=pushbutton.callback", "-F",
                #"args.like={"url": "https://api.example.com/like"}"#, "-F", "to=list", "-F", "recipients=@\(list)",
            ])
        #expect(sent.status == 303, "\(sent.body)")
        let location = try #require(sent.headers["location"])
        #expect(location.hasPrefix("/console/campaigns/c_"))
        // The gateway's workers send the campaign through the store, which offers no signal: polled.
        var page = ""
        try await Poll.until {
            page = try await fixture.curl("GET", location, jar: jar).body
            return page.contains("3 of 3")
        }
        #expect(page.contains("3 of 3"), "\(page)")
        #expect(page.contains(#"id="chart-outcomes""#) && page.contains("<title id=\"chart-outcomes-title\">"))
        #expect(page.contains(#"data-label="Delivered""#) && page.contains("2 · 66.7% of sends"))
        // Token 1 taps Like: the chart of taps per button shows it as a share of the two deliveries.
        let campaign = String(location.dropFirst("/console/campaigns/".count))
        #expect(try await fixture.postTaps(campaign: campaign, [(1, "like", 2500)]) == 200)
        let charted = try await fixture.curl("GET", location, jar: jar).body
        #expect(charted.contains(#"id="chart-buttons""#) && charted.contains("1 · 50.0% of deliveries"), "\(charted)")
        #expect(charted.contains(#"id="chart-time""#) && charted.contains("2.5 s"))
        #expect(charted.contains("Dead tokens") && charted.contains("1 · 33.3% of sends"))
        let listPage = try await fixture.curl("GET", "/console/campaigns", jar: jar)
        #expect(listPage.body.contains("Weekly news") && listPage.body.contains(String(location.dropFirst(19))))

        // APNs said token 4 is dead: the devices page and the summary API count it, redacted.
        let devices = try await fixture.curl("GET", "/console/devices", jar: jar)
        #expect(devices.body.contains("<strong>4</strong> registered: <strong>3</strong> active"))
        #expect(devices.body.contains(String(F.token(4).prefix(8)) + "…") && !devices.body.contains(F.token(4)))

        // Another app's campaign is not found in this session.
        let other = try await fixture.signIn(key: F.otherSecret)
        #expect(try await fixture.curl("GET", location, jar: other.jar).status == 404)
    }

    @Test func theDeviceSummaryAPINeedsTheAppsSecretKeyAndRedactsDeadTokens() async throws {
        let fixture = try await ConsoleFixture()
        defer { Task { await fixture.stop() } }
        let path = "/v1/apps/chat/devices/summary"
        #expect(try await fixture.curl("GET", path).status == 401)
        for key in [F.publishable, F.otherSecret] {
            #expect(
                try await fixture.curl("GET", path, arguments: ["-H", "Authorization: Bearer \(key)"]).status == 403)
        }
        // A send marks token 4 dead.
        let send = try await fixture.curl(
            "POST", "/v1/apps/chat/notifications",
            arguments: [
                "-H", "Authorization: Bearer \(F.secret)", "--data",
                #"{"to": {"tokens": ["\#(F.token(4))"]}, "category": "message", "title": "Hi", "body": "There"}"#,
            ])
        #expect(send.status == 202, "\(send.body)")
        // The gateway's workers mark the token dead in the store, which offers no signal: polled.
        var summary: [String: JSONValue] = [:]
        try await Poll.until {
            let reply = try await fixture.curl("GET", path, arguments: ["-H", "Authorization: Bearer \(F.secret)"])
            #expect(reply.status == 200)
            summary = (try? JSONParser.parse(reply.body))?.objectValue ?? [:]
            return summary["inactive"] == .integer(1)
        }
        #expect(
            summary["total"] == .integer(4) && summary["active"] == .integer(3) && summary["inactive"] == .integer(1))
        #expect(summary["by_environment"] == .object(["production": .integer(3), "sandbox": .integer(1)]))
        #expect(summary["by_locale"] == .object(["en-US": .integer(3), "fr-FR": .integer(1)]))
        #expect(
            summary["by_app_version"] == .object(["2.0": .integer(2), "2.1": .integer(1), "1.9": .integer(1)]))
        let dead = summary["inactive_tokens"]?.arrayValue?.first?.objectValue
        #expect(dead?["token"] == .string(String(F.token(4).prefix(8)) + "…"))
        #expect(dead?["inactive_since"] == .string("2030-03-17T17:46:40Z"))
    }

    // MARK: The pieces

    @Test func aMultipartFormIsReadWithItsFile() throws {
        let body = Array(
            "--XyZ\r\nContent-Disposition: form-data; name=\"title\"\r\n\r\nHé là\r\n--XyZ\r\nContent-Disposition: form-data; name=\"recipients\"; filename=\"list.txt\"\r\nContent-Type: text/plain\r\n\r\nline1\r\nline2\r\n--XyZ--\r\n"
                .utf8)
        let form = try FormFields.parse(contentType: "multipart/form-data; boundary=XyZ", body: body)
        #expect(form["title"] == "Hé là")
        #expect(form.files["recipients"]?.filename == "list.txt")
        #expect(form.files["recipients"].map { String(decoding: $0.bytes, as: UTF8.self) } == "line1\r\nline2")
        let encoded = try FormFields.parse(
            contentType: "application/x-www-form-urlencoded", body: Array("a=1+2&b=%7B%7D&c".utf8))
        #expect(encoded["a"] == "1 2" && encoded["b"] == "{}" && encoded["c"] == "")
        #expect(throws: FormFields.Malformed.self) {
            try FormFields.parse(contentType: "multipart/form-data", body: body)
        }
        #expect(throws: FormFields.Malformed.self) { try FormFields.parse(contentType: "application/json", body: []) }
    }

    @Test func diagnosticsLandOnTheFieldTheyAreAbout() {
        func field(_ components: [JSONPath.Component]) -> String {
            ComposeForm.field(of: JSONPath(components: components))
        }
        #expect(field([.key("title")]) == "title")
        #expect(field([.key("buttons"), .key("like"), .index(0), .key("args"), .key("url")]) == "button.like")
        #expect(field([.key("action_args"), .key("id")]) == "action_args")
        #expect(field([.key("to"), .key("tokens"), .index(0)]) == "to")
        #expect(field([]) == "form")
    }

    @Test func theChartsDrawTheContractsStats() throws {
        let stats = TapStats(
            app: "chat", campaign: "c_1", category: "message", sent: 10, delivered: 8, rejected: 2, failed: 0,
            deadTokens: 1, responses: 4, responseRate: 0.5,
            buttons: [
                .init(button: "like", taps: 3, rateOfDeliveries: 0.375, rateOfResponses: 0.75),
                .init(button: "reply", taps: 0, rateOfDeliveries: 0, rateOfResponses: 0),
            ], body: 1, dismissals: nil, foreground: 1, background: 3, medianTimeToTap: 1500, p90TimeToTap: 42000)
        #expect(stats.buttons.map(\.button) == ["like", "reply"] && stats.dismissals == nil)
        #expect(stats.medianTimeToTap == 1500 && stats.p90TimeToTap == 42000 && stats.deadTokens == 1)
        let chart = CampaignChart.buttons(stats, titles: ["like": "Like"]).text
        #expect(
            chart.contains(#"role="img""#) && chart.contains("Like (like)") && chart.contains("3 · 37.5% of deliveries")
        )
        // The longest bar is the largest rate (like, 0.375): the whole plot; reply's is empty.
        #expect(chart.contains(#"class="value" x="170" y="40" width="320""#))
        #expect(chart.contains(#"class="value" x="170" y="78" width="0""#))
        #expect(!chart.contains("Dismissed"))
        let times = CampaignChart.timeToTap(stats).text
        #expect(times.contains("1.5 s") && times.contains("42.0 s"))
        #expect(CampaignChart.duration(850) == "850 ms" && CampaignChart.duration(600_000) == "10.0 min")
    }

    @Test func theFunnelGoesFromAcceptedToReceivedToTapped() {
        var stats = TapStats(
            app: "chat", campaign: "c_1", category: "message", sent: 10, delivered: 8, rejected: 2, failed: 0,
            deadTokens: 0, responses: 3, responseRate: 0.375, buttons: [], body: 0, dismissals: nil, foreground: 0,
            background: 3, medianTimeToTap: nil, p90TimeToTap: nil)
        let without = CampaignFunnel.html(stats).text
        #expect(without.contains("8</span> accepted by APNs") && without.contains("37.5% of accepted"))
        (stats.received, stats.receivedRate) = (6, 0.75)
        let funnel = CampaignFunnel.html(stats).text
        #expect(funnel.contains(#"<li data-step="received"><span class="num">6</span> received by devices (75"#))
        #expect(funnel.contains("3</span> tapped (50% of received)") || funnel.contains("(50.0% of received)"))
    }
}
