import Foundation
import Pushbutton
import PushbuttonStore
import PushbuttonSupport
import Testing

@testable import PushbuttonGateway

/// The compose page's levers of issue 35 over HTTP (curl) and as values: when (now, at a time in a zone, at a
/// wall-clock time on each device, throttle, quiet hours) with the service's diagnostics beside the fields, the
/// audience builder and its live count endpoint (session, CSRF, Origin), the per-language tabs and their
/// preview, and the campaign pages' timing.
@Suite(.timeLimit(.minutes(3)))
struct ConsoleLeverTests {
    typealias F = ConsoleFixture

    /// A wall-clock time two days ahead (`2026-12-24T09:00`), as a `datetime-local` control sends it.
    static func dayAfterTomorrow() -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd'T'09:00"
        return formatter.string(from: Date() + 2 * 86_400)
    }

    static func fields(_ pairs: [String]) -> [String] { pairs.flatMap { ["-F", $0] } }

    /// The text of a diagnostics slot (`diag-FIELD`) in a page.
    static func slot(_ field: String, in page: String) -> Substring {
        guard let start = page.range(of: "id=\"diag-\(field)\"") else { return "" }
        let rest = page[start.upperBound...]
        return rest[..<(rest.range(of: "</div>")?.lowerBound ?? rest.endIndex)]
    }

    // MARK: When

    @Test func theTimingFieldsBecomeTheRequestsFields() {
        var timing = ComposeTiming()
        var object: [String: JSONValue] = [:]
        var diagnostics: [Diagnostic] = []
        timing.apply(to: &object, diagnostics: &diagnostics)
        #expect(object.isEmpty && diagnostics.isEmpty)

        (timing.mode, timing.time, timing.zone) = (.at, "2026-12-24T09:00", "Europe/Paris")
        timing.throttle = "3000"
        timing.ignoreQuietHours = true
        timing.apply(to: &object, diagnostics: &diagnostics)
        #expect(object["send_at"] == .string("2026-12-24T09:00:00+01:00") && object["local_time"] == nil)
        #expect(object["throttle_per_minute"] == .integer(3000) && object["ignore_quiet_hours"] == .bool(true))
        #expect(diagnostics.isEmpty)

        object = [:]
        (timing.mode, timing.time) = (.local, "2026-12-24T09:00")
        timing.apply(to: &object, diagnostics: &diagnostics)
        #expect(object["send_at"] == .string("2026-12-24T09:00:00") && object["local_time"] == .bool(true))

        for (mode, time, zone, field) in [
            (ComposeTiming.Mode.at, "", "UTC", "send_at"), (.local, "24/12/2026", "UTC", "send_at"),
            (.at, "2026-12-24T09:00", "Mars/Olympus", "send_zone"),
        ] {
            var problems: [Diagnostic] = []
            object = [:]
            (timing.mode, timing.time, timing.zone) = (mode, time, zone)
            timing.apply(to: &object, diagnostics: &problems)
            #expect(problems.map { ComposeForm.field(of: $0.path) } == [field], "\(time) \(zone)")
        }
        // The service's own diagnostics land beside the fields too.
        let paths: [(JSONPath, String)] = [
            (.root.appending("send_at"), "send_at"), (.root.appending("local_time"), "send_at"),
            (.root.appending("throttle_per_minute"), "throttle_per_minute"),
            (.root.appending("to").appending("segment").appending("and").appending(1), "segment"),
            (.root.appending("seg.2").appending("app_version"), "seg.2"),
            (.root.appending("localized").appending("fr").appending("title"), "loc.fr.title"),
            (.root.appending("localized").appending("fr"), "loc.fr"),
            (.root.appending("seg_saved").appending("saved"), "seg_saved"),
        ]
        for (path, field) in paths { #expect(ComposeForm.field(of: path) == field, "\(path)") }
    }

    @Test func badTimesAndThrottlesAreRefusedBesideTheirFields() async throws {
        let fixture = try await ConsoleFixture()
        defer { Task { await fixture.stop() } }
        let (jar, csrf) = try await fixture.signIn()
        let base = [
            "csrf=\(csrf)", "intent=send", "category=message", "title=Hours", "body=Open at ten", "to=token",
            "to_token=\(F.token(1))",
        ]
        let past = try await fixture.curl(
            "POST", "/console/compose", jar: jar,
            arguments: Self.fields(base + ["when=at", "send_at=2020-01-01T09:00", "send_zone=Europe/Paris"]))
        #expect(past.status == 422 && Self.slot("send_at", in: past.body).contains("has passed"), "\(past.body)")
        #expect(past.body.contains(#"id="when-at" checked"#))  // the form comes back as it was posted

        let zone = try await fixture.curl(
            "POST", "/console/compose", jar: jar,
            arguments: Self.fields(base + ["when=at", "send_at=\(Self.dayAfterTomorrow())", "send_zone=Mars/Base"]))
        #expect(zone.status == 422 && Self.slot("send_zone", in: zone.body).contains("not a time zone"))

        let throttled = try await fixture.curl(
            "POST", "/console/compose", jar: jar, arguments: Self.fields(base + ["throttle_per_minute=100"]))
        #expect(
            throttled.status == 422
                && Self.slot("throttle_per_minute", in: throttled.body).contains("is a campaign&#39;s setting"))

        let scheduled = try await fixture.curl(
            "POST", "/console/compose", jar: jar,
            arguments: Self.fields(
                base + [
                    "when=at", "send_at=\(Self.dayAfterTomorrow())", "send_zone=America/New_York",
                    "ignore_quiet_hours=1",
                ]))
        #expect(scheduled.status == 200 && scheduled.body.contains("Queued n_"), "\(scheduled.body)")
    }

    // MARK: The audience builder

    @Test func theBuilderMakesTheAPIsExpression() throws {
        let form = FormFields.urlEncoded(
            "seg.0.kind=tag&seg.0.value=beta&seg.3.kind=app_version&seg.3.value=%3E%3D2.1&seg.1.kind=locale"
                + "&seg.1.value=fr&seg.1.not=1&seg.2.kind=tapped&seg.2.value=&seg.2.days=7&seg.4.kind=user"
                + "&seg_match=any&seg_saved=vip")
        let builder = AudienceBuilder(form, adding: false)
        #expect(builder.conditions.count == 5 && !builder.matchAll)
        let expected: JSONValue = .object([
            "or": .array([
                .object(["saved": .string("vip")]), .object(["tag": .string("beta")]),
                .object(["not": .object(["locale": .string("fr")])]),
                .object(["tapped": .object(["within_days": .integer(7)])]),
                .object(["app_version": .string(">=2.1")]),
            ])
        ])
        #expect(builder.expression == expected)
        #expect(builder.leaves.map(\.row) == [0, 1, 2, 3])  // row 4 is blank: left out
        #expect(AudienceBuilder(form, adding: true).conditions.count == 6)
        let one = AudienceBuilder(FormFields.urlEncoded("seg.0.kind=last_seen_days&seg.0.value=30"), adding: false)
        #expect(one.expression == .object(["last_seen_days": .integer(30)]))
        #expect(AudienceBuilder(FormFields(), adding: false).expression == nil)
    }

    @Test func theLiveCountFollowsTheConditionsUnderTheSessionsRules() async throws {
        let fixture = try await ConsoleFixture()
        defer { Task { await fixture.stop() } }
        let (jar, csrf) = try await fixture.signIn()
        func count(_ fields: [String], headers: [String] = [], token: String? = nil) async throws -> (
            status: Int, json: [String: JSONValue]
        ) {
            var arguments = (token ?? csrf).isEmpty ? [] : ["-H", "X-CSRF-Token: \(token ?? csrf)"]
            for header in headers { arguments += ["-H", header] }
            for field in fields { arguments += ["--data-urlencode", field] }
            let reply = try await fixture.curl("POST", "/console/audience", jar: jar, arguments: arguments)
            return (reply.status, (try? JSONParser.parse(reply.body))?.objectValue ?? [:])
        }
        let beta = ["seg.0.kind=tag", "seg.0.value=beta"]
        #expect(try await count(beta).json["devices"] == .integer(4))
        #expect(try await count(beta + ["seg.1.kind=app_version", "seg.1.value=>=2.1"]).json["devices"] == .integer(1))
        #expect(
            try await count(beta + ["seg.1.kind=locale", "seg.1.value=fr", "seg.1.not=1"]).json["devices"]
                == .integer(3))
        #expect(
            try await count(["seg.0.kind=user", "seg.0.value=u1", "seg.1.kind=user", "seg.1.value=u2", "seg_match=any"])
                .json["devices"] == .integer(2))
        let bad = try await count(beta + ["seg.1.kind=app_version", "seg.1.value=two"])
        #expect(bad.status == 200 && bad.json["devices"] == .null)
        #expect(bad.json["diagnostics"]?.arrayValue?.first?.objectValue?["field"] == .string("seg.1"))
        // The session's rules: no token, a wrong one, another site, no session.
        #expect(try await count(beta, token: "").status == 403)
        #expect(try await count(beta, token: "wrong").status == 403)
        #expect(try await count(beta, headers: ["Sec-Fetch-Site: cross-site"]).status == 403)
        #expect(try await count(beta, headers: ["Origin: https://evil.example"]).status == 403)
        let anonymous = try await fixture.curl(
            "POST", "/console/audience", arguments: ["-H", "X-CSRF-Token: \(csrf)", "--data", "seg.0.kind=tag"])
        #expect(anonymous.status == 401)

        // A saved segment is offered and counted as one more condition.
        let saved = try await fixture.curl(
            "PUT", "/v1/apps/chat/segments/french",
            arguments: ["-H", "Authorization: Bearer \(F.secret)", "--data", #"{"locale": "fr"}"#])
        #expect(saved.status == 200, "\(saved.body)")
        #expect(try await count(beta + ["seg_saved=french"]).json["devices"] == .integer(1))
        #expect(
            try await count(["seg_saved=gone"]).json["diagnostics"]?.arrayValue?.first?.objectValue?["field"]
                == .string("seg_saved"))

        // Without the script: "Count" and "Add a condition" post the form, and the page comes back with them.
        let page = try await fixture.curl(
            "POST", "/console/compose", jar: jar,
            arguments: Self.fields(
                ["csrf=\(csrf)", "intent=count", "category=message", "to=segment"] + beta + [
                    "seg.1.kind=app_version", "seg.1.value=>=2.1",
                ]))
        #expect(page.status == 200 && page.body.contains(#"data-count="1">1</output>"#), "\(page.body)")
        #expect(page.body.contains(#"<option value="french">french</option>"#))
        let added = try await fixture.curl(
            "POST", "/console/compose", jar: jar,
            arguments: Self.fields(["csrf=\(csrf)", "intent=add_condition", "category=message"] + beta))
        #expect(added.body.contains(#"id="seg.1.kind""#) && !added.body.contains(#"id="seg.2.kind""#))
        #expect(added.body.contains(#"<label class="sr-only" for="seg.1.value">Condition 2: value</label>"#))
        let removed = try await fixture.curl(
            "POST", "/console/compose", jar: jar,
            arguments: Self.fields(
                ["csrf=\(csrf)", "intent=remove_condition.0", "category=message"] + beta + [
                    "seg.1.kind=locale", "seg.1.value=fr",
                ]))
        #expect(removed.body.contains(#"id="seg.0.value" name="seg.0.value" class="value" value="fr""#))
        #expect(!removed.body.contains(#"id="seg.1.kind""#))
        // Enter in a text field submits the form's first button: the hidden "Update preview", not a row's.
        let form = try #require(removed.body.range(of: #"<form id="compose""#))
        #expect(
            removed.body[form.upperBound...].range(of: "<button")?.lowerBound
                == removed.body[form.upperBound...].range(of: #"<button type="submit" name="intent" value="preview""#)?
                .lowerBound)
    }

    @Test func aSegmentCampaignAtLocalTimeIsListedAsScheduled() async throws {
        let fixture = try await ConsoleFixture()
        defer { Task { await fixture.stop() } }
        let (jar, csrf) = try await fixture.signIn()
        let at = Self.dayAfterTomorrow()
        let sent = try await fixture.curl(
            "POST", "/console/compose", jar: jar,
            arguments: Self.fields([
                "csrf=\(csrf)", "intent=send", "category=message", "title=Holiday hours", "body=Open at ten",
                "loc.fr.title=Horaires des fêtes", "to=segment", "seg.0.kind=tag", "seg.0.value=beta",
                "seg.1.kind=app_version", "seg.1.value=>=2.0", "when=local", "send_at=\(at)",
                "throttle_per_minute=600",
            ]))
        #expect(sent.status == 303, "\(sent.body)")
        let location = try #require(sent.headers["location"])
        let page = try await fixture.curl("GET", location, jar: jar).body
        #expect(page.contains(#"<dd id="campaign-state">scheduled</dd>"#), "\(page)")
        #expect(page.contains(at.replacingOccurrences(of: "T", with: " ") + ":00 on each device"))
        #expect(page.contains("600 a minute") && page.contains("3 scheduled"))
        #expect(page.contains(#"<td class="num" data-state="scheduled">3</td>"#))
        // The store's estimate counts from now; the devices are not due before their local time.
        #expect(page.contains(#"<dd id="campaign-finish">after the devices&#39; local times</dd>"#))
        let list = try await fixture.curl("GET", "/console/campaigns", jar: jar).body
        #expect(list.contains(#"<td class="state">scheduled</td>"#) && list.contains("local time"), "\(list)")
        #expect(list.contains("600/min") && !list.contains("finish ≈"))
        // The API says the same of it.
        let id = String(location.dropFirst("/console/campaigns/".count))
        let api = try await fixture.curl(
            "GET", "/v1/campaigns/\(id)", arguments: ["-H", "Authorization: Bearer \(F.secret)"])
        let counts = (try? JSONParser.parse(api.body))?.objectValue?["counts"]?.objectValue
        #expect(counts?["scheduled"] == .integer(3), "\(api.body)")
    }

    @Test func theCampaignsStateFollowsWhatWaits() {
        let spec = NotificationSpec(
            id: "c_1", app: "chat", kind: .campaign, topic: "t", pushType: "alert", priority: nil, expiration: nil,
            collapseID: nil, createdAt: Date(timeIntervalSince1970: 0), request: Array(#"{"title": "x"}"#.utf8),
            sendAt: nil, throttlePerMinute: 60)
        var record = NotificationRecord(spec: spec, state: "open", counts: [.queued: 10], deliveries: [])
        #expect(CampaignTiming.state(record) == "sending")
        record.schedule = ScheduleCounts(
            throttled: 10, throttlePerMinute: 60, expectedFinish: Date(timeIntervalSince1970: 600))
        #expect(CampaignTiming.state(record) == "throttled")
        #expect(
            CampaignTiming.summary(record).text.contains(
                "60/min<br><span class=\"finish\">finish ≈ 1970-01-01T00:10:00Z"))
        record.schedule = ScheduleCounts(held: 6, throttled: 4)
        #expect(CampaignTiming.state(record) == "held")
        #expect(
            CampaignTiming.counts(record).filter { ["queued", "held", "throttled"].contains($0.0) }.map(\.1) == [
                0, 6, 4,
            ])
        (record.counts, record.schedule) = ([.queued: 5, .leased: 5], ScheduleCounts(held: 5))
        #expect(CampaignTiming.state(record) == "sending")
        record.counts = [.delivered: 10]
        #expect(CampaignTiming.state(record) == "finished")
        record.state = "cancelled"
        #expect(CampaignTiming.state(record) == "cancelled")
    }

    // MARK: Languages

    @Test func theLanguageTabIsThePreviewsLanguage() async throws {
        let fixture = try await ConsoleFixture()
        defer { Task { await fixture.stop() } }
        let (jar, csrf) = try await fixture.signIn()
        let compose = try await fixture.curl("GET", "/console/compose", jar: jar).body
        #expect(compose.contains(#"<input type="radio" name="locale" value="en" id="tab-en" checked"#))
        #expect(compose.contains(#"id="loc.fr.title" name="loc.fr.title""#))
        func preview(_ locale: String, _ extra: [String] = []) async throws -> [String: JSONValue] {
            var arguments = ["-H", "X-CSRF-Token: \(csrf)"]
            for field in ["category=message", "locale=\(locale)", "title=Hello", "body=Hi", "loc.fr.title=Bonjour"]
                + extra
            {
                arguments += ["--data-urlencode", field]
            }
            let reply = try await fixture.curl("POST", "/console/preview", jar: jar, arguments: arguments)
            return (try? JSONParser.parse(reply.body))?.objectValue ?? [:]
        }
        let french = try await preview("fr")
        #expect(french["html"]?.stringValue?.contains(#"<p class="title">Bonjour</p>"#) == true)
        #expect(french["html"]?.stringValue?.contains(#"<span class="label">Répondre</span>"#) == true)
        let english = try await preview("en")
        #expect(english["html"]?.stringValue?.contains(#"<p class="title">Hello</p>"#) == true)
        // A language's problem is beside its tab's field.
        let long = String(repeating: "é", count: 3000)
        let tooLong = try await preview("fr", ["loc.fr.body=\(long)"])
        let fields = (tooLong["diagnostics"]?.arrayValue ?? []).compactMap { $0.objectValue?["field"]?.stringValue }
        #expect(fields.contains { $0.hasPrefix("loc.fr") }, "\(fields)")
    }
}
