import Foundation
import Pushbutton
import PushbuttonStore
import Testing

@testable import PushbuttonGateway

/// The API's routes through ``RouterClient``: the router in process, over SQLite, without a socket. Keys
/// (`401`/`403`), validation (`422` with located diagnostics), `404`/`405`/`HEAD`, idempotency, campaigns and
/// their recipient lists, taps and stats. The end-to-end tests through h2o and the mock APNs stay in
/// ``GatewayEndToEndTests`` and ``TapRoutesTests``.
@Suite(.timeLimit(.minutes(2)))
struct RouterTests {
    typealias F = GatewayFixture

    @Test func badInputGetsDiagnosticsAndQueuesNothing() throws {
        let fixture = try RouterClient()
        let token = F.token(1)
        let unknownCategory = fixture.request(
            "POST", "/v1/apps/chat/notifications",
            json: #"{"to": {"tokens": ["\#(token)"]}, "category": "mesage", "body": "Hi"}"#)
        #expect(unknownCategory.status == 422)
        let error = try #require(unknownCategory.json?.objectValue?["error"]?.objectValue)
        #expect(error["code"] == "invalid_request")
        let diagnostic = try #require(error["diagnostics"]?.arrayValue?.first?.objectValue)
        #expect(diagnostic["code"] == "unknown-category")
        #expect(diagnostic["path"] == "category")
        #expect(diagnostic["line"] == 1)
        #expect(diagnostic["hint"]?.stringValue?.contains("message") == true)

        let openFromBackground = fixture.request(
            "POST", "/v1/apps/chat/notifications",
            json: """
                {"to": {"tokens": ["\(token)"]}, "category": "message", "body": "Hi",
                 "buttons": {"like": [{"action": "pushbutton.open_url", "args": {"url": "https://example.com"}}]}}
                """)
        #expect(openFromBackground.status == 422)
        let codes = openFromBackground.json?.objectValue?["error"]?.objectValue?["diagnostics"]?.arrayValue?.compactMap
        {
            $0.objectValue?["code"]?.stringValue
        }
        #expect(codes?.contains("background-open") == true, "\(openFromBackground.body)")
        let paths = openFromBackground.json?.objectValue?["error"]?.objectValue?["diagnostics"]?.arrayValue?.compactMap
        {
            $0.objectValue?["path"]?.stringValue
        }
        #expect(paths?.allSatisfy { $0.hasPrefix("buttons") } == true, "\(paths ?? [])")

        let badToken = fixture.request(
            "POST", "/v1/apps/chat/notifications",
            json: #"{"to": {"tokens": ["abc"]}, "category": "message", "body": "Hi"}"#)
        #expect(badToken.status == 422)
        #expect(badToken.body.contains("to.tokens[0]"))
        let syntax = fixture.request("POST", "/v1/apps/chat/notifications", json: #"{"to": "#)
        #expect(syntax.status == 422)
        #expect(syntax.body.contains("json-syntax"))
        let unknownField = fixture.request(
            "POST", "/v1/apps/chat/notifications",
            json: #"{"to": {"tokens": ["\#(token)"]}, "category": "message", "body": "Hi", "prority": 10}"#)
        #expect(unknownField.status == 422)
        #expect(unknownField.body.contains("priority"))
        let badLine = fixture.request(
            "POST", "/v1/apps/chat/campaigns",
            json: "{\"category\": \"message\", \"body\": \"Hi\"}\n{\"token\": \"\(token)\"}\n{\"tokn\": 1}\n")
        #expect(badLine.status == 422)
        #expect(
            badLine.json?.objectValue?["error"]?.objectValue?["diagnostics"]?.arrayValue?.first?.objectValue?["line"]
                == 3)
        #expect(try fixture.store.queueDepth() == 0)
        // A device with a bad body.
        let device = fixture.request(
            "PUT", "/v1/apps/chat/devices/\(token)", key: F.publishable, json: #"{"environment": "staging"}"#)
        #expect(device.status == 422)
        #expect(device.body.contains("environment"))
    }

    @Test func keysAreCheckedOnEveryRoute() throws {
        let fixture = try RouterClient()
        let body = #"{"to": {"tokens": ["\#(F.token(1))"]}, "category": "message", "body": "Hi"}"#
        let routes: [(String, String)] = [
            ("POST", "/v1/apps/chat/notifications"), ("PUT", "/v1/apps/chat/devices/\(F.token(1))"),
            ("DELETE", "/v1/apps/chat/devices/\(F.token(1))"), ("GET", "/v1/notifications/n_x"),
            ("POST", "/v1/apps/chat/campaigns"), ("GET", "/v1/campaigns/c_x"), ("POST", "/v1/campaigns/c_x/cancel"),
            ("POST", "/v1/campaigns/c_x/recipients"), ("GET", "/metrics"), ("GET", "/v1/nothing"),
        ]
        for (method, path) in routes {
            let json = method == "GET" || method == "DELETE" ? nil : body
            #expect(fixture.request(method, path, key: nil, json: json).status == 401, "\(method) \(path)")
            #expect(fixture.request(method, path, key: "pb_sk_wrong", json: json).status == 401)
        }
        #expect(
            fixture.request("POST", "/v1/apps/chat/notifications", key: F.otherSecret, json: body).status
                == 403)
        #expect(
            fixture.request("PUT", "/v1/apps/chat/devices/\(F.token(1))", key: F.otherSecret).status == 403)
        #expect(
            fixture.request("POST", "/v1/apps/chat/notifications", key: F.publishable, json: body).status
                == 403)
        let sent = fixture.request("POST", "/v1/apps/chat/notifications", json: body)
        let id = try #require(sent.json?.objectValue?["id"]?.stringValue)
        #expect(fixture.request("GET", "/v1/notifications/\(id)", key: F.otherSecret).status == 403)
        #expect(fixture.request("GET", "/v1/notifications/\(id)").status == 200)
        #expect(fixture.request("GET", "/v1/notifications/\(id)", key: F.publishable).status == 403)
        #expect(fixture.request("GET", "/healthz", key: nil).status == 200)
        #expect(fixture.request("GET", "/readyz", key: nil).status == 200)
        #expect(fixture.request("PATCH", "/v1/apps/chat/notifications").status == 405)
    }

    @Test func anIdempotencyKeyMakesARetrySafe() throws {
        let fixture = try RouterClient()
        let body = #"{"to": {"tokens": ["\#(F.token(1))", "\#(F.token(2))"]}, "category": "message", "body": "Hi"}"#
        let first = fixture.request(
            "POST", "/v1/apps/chat/notifications", json: body, headers: ["Idempotency-Key": "order-42"])
        let again = fixture.request(
            "POST", "/v1/apps/chat/notifications", json: body, headers: ["Idempotency-Key": "order-42"])
        #expect(first.status == 202)
        #expect(again.status == 202)
        #expect(again.json?.objectValue?["id"] == first.json?.objectValue?["id"])
        #expect(again.json?.objectValue?["replayed"] == true)
        #expect(try fixture.store.queueDepth() == 2)
        let different = fixture.request(
            "POST", "/v1/apps/chat/notifications", json: body.replacingOccurrences(of: "Hi", with: "Ho"),
            headers: ["Idempotency-Key": "order-42"])
        #expect(different.status == 409)
        // Another app's identical key is its own.
        let other = fixture.request(
            "POST", "/v1/apps/other/notifications", key: F.otherSecret, json: body,
            headers: ["Idempotency-Key": "order-42"])
        #expect(other.status == 202)
        #expect(other.json?.objectValue?["id"] != first.json?.objectValue?["id"])
    }

    @Test func campaignsTakeMorePagesAndCancel() throws {
        let fixture = try RouterClient()
        let header = #"{"category": "message", "body": "Hi {{name}}"}"#
        let lines = (1...3).map { #"{"token": "\#(F.token($0))", "data": {"name": "n\#($0)"}}"# }
        let created = fixture.request(
            "POST", "/v1/apps/chat/campaigns", json: ([header] + lines).joined(separator: "\n"))
        #expect(created.status == 202, "\(created.body)")
        let id = try #require(created.json?.objectValue?["id"]?.stringValue)
        let page = (4...6).map { #"{"token": "\#(F.token($0))", "data": {"name": "n\#($0)"}}"# }.joined(separator: "\n")
        let appended = fixture.request("POST", "/v1/campaigns/\(id)/recipients", json: page)
        #expect(appended.json?.objectValue?["recipients"] == 6, "\(appended.body)")
        let missingData = fixture.request(
            "POST", "/v1/campaigns/\(id)/recipients", json: #"{"token": "\#(F.token(9))"}"#)
        #expect(missingData.status == 422)
        #expect(missingData.body.contains("name"))
        #expect(
            fixture.request("POST", "/v1/campaigns/\(id)/recipients", key: F.otherSecret, json: page).status
                == 403)
        let cancelled = fixture.request("POST", "/v1/campaigns/\(id)/cancel")
        #expect(cancelled.json?.objectValue?["state"] == "cancelled")
        #expect(cancelled.json?.objectValue?["counts"]?.objectValue?["cancelled"] == 6)
        #expect(fixture.request("POST", "/v1/campaigns/\(id)/recipients", json: page).status == 409)
        #expect(try fixture.store.queueDepth() == 0)
    }

    /// A request for each route of the table with its captures filled in.
    static func path(of route: Route, id: String = "x") -> String {
        "/"
            + route.pattern.replacingOccurrences(of: "{app}", with: "chat")
            .replacingOccurrences(of: "{token}", with: F.token(1)).replacingOccurrences(of: "{id}", with: id)
            .replacingOccurrences(of: "{name}", with: "beta")
    }

    @Test func everyRouteOfTheTableNeedsAKeyAndIsCountedUnderItsPattern() throws {
        let fixture = try RouterClient()
        for route in Router.routes {
            let answer = fixture.request(route.method, Self.path(of: route), key: nil, json: "{}")
            #expect(answer.status == 401, "\(route.label): \(answer.body)")
        }
        let metrics = fixture.metrics.render(queueDepth: nil)
        for route in Router.routes {
            #expect(
                metrics.contains(#"pushbutton_http_requests_total{route="\#(route.label)",status="401"} 1"#),
                "\(route.label)")
        }
    }

    @Test func headAnswersEveryGetRouteAsGetWithoutABody() throws {
        let fixture = try RouterClient()
        let sent = fixture.request(
            "POST", "/v1/apps/chat/notifications",
            json: #"{"to": {"tokens": ["\#(F.token(1))"]}, "category": "message", "body": "Hi"}"#)
        let created = fixture.request(
            "POST", "/v1/apps/chat/campaigns",
            // With an experiment, so its route answers too.
            json: #"{"category": "message", "variants": [{"name": "A", "share": 50, "body": "Hi"}, "#
                + #"{"name": "B", "share": 50, "body": "Hey"}]}"# + "\n" + F.token(2))
        let notification = try #require(sent.json?.objectValue?["id"]?.stringValue)
        let campaign = try #require(created.json?.objectValue?["id"]?.stringValue)
        #expect(fixture.request("PUT", "/v1/apps/chat/segments/beta", json: #"{"tag": "beta"}"#).status == 200)
        let gets = Router.routes.filter { $0.method == "GET" }
        #expect(gets.count == 8)
        for route in gets {
            let path = Self.path(of: route, id: route.pattern.contains("campaigns") ? campaign : notification)
            let get = fixture.request("GET", path)
            let head = fixture.request("HEAD", path)
            #expect(get.status == 200, "\(path): \(get.body)")
            #expect(head.status == get.status && head.body.isEmpty, "\(path): \(head.status)")
            #expect(head.header("content-type") == get.header("content-type"), "\(path)")
        }
        for path in ["/healthz", "/readyz"] {
            let head = fixture.request("HEAD", path, key: nil)
            #expect(head.status == 200 && head.body.isEmpty, "\(path)")
        }
        #expect(
            fixture.metrics.render(queueDepth: nil).contains(
                #"pushbutton_http_requests_total{route="GET /v1/campaigns/{id}",status="200"} 2"#))
    }

    @Test func aPathWithOtherMethodsIs405WithAllowAndAnUnknownPathIs404() throws {
        let fixture = try RouterClient()
        let cases: [(String, String, String)] = [
            ("PATCH", "/v1/apps/chat/notifications", "POST"), ("GET", "/v1/apps/chat/taps", "POST"),
            ("POST", "/v1/notifications/n_x", "GET, HEAD"), ("DELETE", "/v1/apps/chat/stats", "GET, HEAD"),
            ("GET", "/v1/campaigns/c_x/cancel", "POST"), ("POST", "/v1/apps/chat/devices/\(F.token(1))", "PUT, DELETE"),
        ]
        for (method, path, allow) in cases {
            let refused = fixture.request(method, path)
            #expect(refused.status == 405, "\(method) \(path): \(refused.body)")
            #expect(refused.header("allow") == allow, "\(method) \(path)")
            #expect(refused.json?.objectValue?["error"]?.objectValue?["code"] == "method_not_allowed")
            #expect(fixture.request(method, path, key: nil).status == 401, "a 405 needs a key first: \(path)")
        }
        #expect(fixture.request("GET", "/v1/apps/chat/nothing").status == 404)
        #expect(fixture.request("GET", "/v1/apps/chat/nothing").header("allow") == nil)
        #expect(
            fixture.metrics.render(queueDepth: nil).contains(
                #"pushbutton_http_requests_total{route="unknown",status="405"} 6"#))
    }

    @Test func aSentNotificationIsAcceptedAndReadBack() throws {
        let fixture = try RouterClient()
        let body = #"{"to": {"tokens": ["\#(F.token(1))", "\#(F.token(2))"]}, "category": "message", "body": "Hi"}"#
        let sent = fixture.request("POST", "/v1/apps/chat/notifications", json: body)
        #expect(sent.status == 202, "\(sent.body)")
        let id = try #require(sent.json?.objectValue?["id"]?.stringValue)
        #expect(id.hasPrefix("n_") && sent.json?.objectValue?["replayed"] == nil)
        let read = fixture.request("GET", "/v1/notifications/\(id)?limit=1")
        #expect(read.status == 200)
        let object = try #require(read.json?.objectValue)
        #expect(object["recipients"] == 2 && object["kind"] == "notification" && object["app"] == "chat")
        #expect(object["counts"]?.objectValue?["queued"] == 2, "nothing sends in process: \(read.body)")
        #expect(object["deliveries"]?.arrayValue?.count == 1 && object["next_after"] != nil)
        #expect(fixture.request("GET", "/v1/notifications/n_nothing").status == 404)
    }

    @Test func aDeviceRegistersAndIsForgotten() throws {
        let fixture = try RouterClient()
        let path = "/v1/apps/chat/devices/\(F.token(7).uppercased())"
        let registered = fixture.request(
            "PUT", path, key: F.publishable, json: #"{"environment": "sandbox", "tags": ["beta"], "locale": "fr"}"#)
        #expect(registered.status == 200, "\(registered.body)")
        #expect(registered.json?.objectValue?["token"]?.stringValue == F.token(7))
        #expect(registered.json?.objectValue?["environment"] == "sandbox")
        let tagged = fixture.request(
            "POST", path + "/tags", key: F.publishable, json: #"{"add": ["news"], "remove": ["beta"]}"#)
        #expect(tagged.status == 200 && tagged.json?.objectValue?["tags"] == ["news"], "\(tagged.body)")
        #expect(fixture.request("GET", "/v1/apps/chat/devices/summary").json?.objectValue?["total"] == 1)
        #expect(fixture.request("GET", "/v1/apps/chat/devices/summary", key: F.publishable).status == 403)
        #expect(fixture.request("DELETE", path, key: F.publishable).status == 204)
        #expect(fixture.request("DELETE", path, key: F.publishable).status == 404)
        #expect(fixture.request("PUT", "/v1/apps/chat/devices/abc", key: F.publishable).status == 422)
    }

    @Test func tapsAreCheckedAndStoredOnceAndTheStatsCountThem() throws {
        let fixture = try RouterClient()
        let sent = fixture.request(
            "POST", "/v1/apps/chat/notifications",
            json: #"{"to": {"tokens": ["\#(F.token(1))"]}, "category": "message", "body": "Hi"}"#)
        let id = try #require(sent.json?.objectValue?["id"]?.stringValue)
        let batch = TapRoutesTests.body([TapRoutesTests.tap("e1", token: F.token(1), notification: id)])
        #expect(fixture.request("POST", "/v1/apps/chat/taps", key: nil, json: batch).status == 401)
        #expect(fixture.request("POST", "/v1/apps/chat/taps", key: F.otherSecret, json: batch).status == 403)
        let invalid = fixture.request(
            "POST", "/v1/apps/chat/taps", key: F.publishable,
            json: TapRoutesTests.body([TapRoutesTests.tap("e2", token: "xyz", notification: id)]))
        #expect(invalid.status == 422)
        #expect(invalid.body.contains("taps[0].token"), "\(invalid.body)")
        let first = fixture.request("POST", "/v1/apps/chat/taps", key: F.publishable, json: batch)
        #expect(first.json == ["accepted": 1, "duplicates": 0], "\(first.body)")
        let again = fixture.request("POST", "/v1/apps/chat/taps", key: F.publishable, json: batch)
        #expect(again.json == ["accepted": 0, "duplicates": 1])
        let stats = fixture.request("GET", "/v1/apps/chat/stats?category=message")
        #expect(stats.status == 200, "\(stats.body)")
        let object = try #require(stats.json?.objectValue)
        #expect(object["responses"] == 1 && object["category"] == "message" && object["campaign"] == .null)
        let like = object["buttons"]?.arrayValue?.first?.objectValue
        #expect(like?["button"] == "like" && like?["taps"] == 1 && like?["rate_of_responses"] == .double(1))
        #expect(fixture.request("GET", "/v1/apps/chat/stats", key: F.publishable).status == 403)
        #expect(fixture.request("GET", "/v1/apps/chat/stats?campaign=c_none").status == 404)
        #expect(fixture.request("GET", "/v1/apps/chat/stats?sort=up").status == 422)
    }

    // MARK: The recipient list, one rule for the API and the console

    /// Comments, blank lines, bare tokens (any case) and recipient objects, with the campaign after a comment.
    static let list = [
        "# the campaign's recipients", "", "  \(F.token(1))", "\(F.token(2).uppercased())\r",
        #"{"token": "\#(F.token(3))"}"#, "# the end",
    ]

    @Test func theAPITakesCommentsAndBareTokensInACampaignAndItsPages() throws {
        let fixture = try RouterClient()
        let header = #"{"category": "message", "body": "Hi"}"#
        let created = fixture.request(
            "POST", "/v1/apps/chat/campaigns", json: (["# weekly", header] + Self.list).joined(separator: "\n"))
        #expect(created.status == 202, "\(created.body)")
        #expect(created.json?.objectValue?["recipients"] == 3)
        let id = try #require(created.json?.objectValue?["id"]?.stringValue)
        let page = ["# more", F.token(4), "", #"{"token": "\#(F.token(5))"}"#].joined(separator: "\n")
        let appended = fixture.request("POST", "/v1/campaigns/\(id)/recipients", json: page)
        #expect(appended.status == 202 && appended.json?.objectValue?["recipients"] == 5, "\(appended.body)")
        let bad = fixture.request("POST", "/v1/campaigns/\(id)/recipients", json: "# one\n\(F.token(6))\nabc123\n")
        #expect(bad.status == 422)
        #expect(bad.body.contains("line 3: not a JSON object or a device token"), "\(bad.body)")
        let short = fixture.request("POST", "/v1/campaigns/\(id)/recipients", json: String(F.token(6).dropLast(2)))
        #expect(short.status == 422, "a bare token of 62 digits is refused: \(short.body)")
        #expect(try fixture.store.queueDepth() == 5)
    }

    @Test func theConsoleUploadTakesTheSameList() throws {
        let fixture = try RouterClient()
        let session = try ConsoleUser(fixture)
        let sent = session.compose(list: Self.list.joined(separator: "\n"))
        #expect(sent.status == 303, "\(sent.body)")
        let location = try #require(sent.header("location"))
        let id = String(try #require(location.split(separator: "/").last))
        let record = try #require(try fixture.store.notification(id: id, limit: 0, after: 0))
        #expect(record.total == 3 && record.spec.kind == .campaign)
        let refused = session.compose(list: "# one\n\(F.token(6))\nabc123\n")
        #expect(refused.status == 422)
        #expect(refused.body.contains("line 3: not a JSON object or a device token"), "\(refused.body)")
        #expect(session.compose(list: "# nothing\n\n").body.contains("names no recipient"))
        #expect(try fixture.store.queueDepth() == 3)
    }

    @Test func theConsoleComposesMediaAndLocatesABadOne() throws {
        let fixture = try RouterClient()
        let session = try ConsoleUser(fixture)
        let page = fixture.request("GET", "/console/compose", key: nil, headers: ["cookie": session.cookie])
        #expect(page.body.contains(#"name="media_url""#) && page.body.contains(#"<option value="video">"#))
        let sent = session.compose(
            list: F.token(1), extra: [("media_url", "https://cdn.example.com/sale.jpg"), ("media_type", "image")])
        #expect(sent.status == 303, "\(sent.body)")
        let id = String(try #require(sent.header("location")?.split(separator: "/").last))
        let record = try #require(try fixture.store.notification(id: id, limit: 0, after: 0))
        let request = try JSONParser.parse(record.spec.request)
        #expect(request["media"] == ["url": "https://cdn.example.com/sale.jpg", "type": "image"], "\(request)")
        let refused = session.compose(
            list: F.token(2), extra: [("media_url", "ftp://cdn.example.com/a.jpg"), ("media_type", "image")])
        #expect(refused.status == 422)
        #expect(refused.body.contains("is not an https URL the extension can download"), "\(refused.body)")
        #expect(try fixture.store.queueDepth() == 1)
    }

    /// A console session through the router: signed in, with the page's CSRF token.
    struct ConsoleUser {
        let fixture: RouterClient
        let cookie: String
        let csrf: String

        init(_ fixture: RouterClient) throws {
            self.fixture = fixture
            let login = fixture.router.handle(
                HTTPRequest(
                    method: "POST", path: "/console/login",
                    headers: ["content-type": "application/x-www-form-urlencoded"], body: Array("key=\(F.secret)".utf8))
            )
            let setCookie = try #require(login.header("set-cookie"))
            cookie = String(try #require(setCookie.split(separator: ";").first))
            let page = fixture.request("GET", "/console/compose", key: nil, headers: ["cookie": cookie])
            let start = try #require(page.body.range(of: #"name="csrf" value=""#))
            csrf = String(page.body[start.upperBound...].prefix { $0 != "\"" })
        }

        /// Posts the compose form to send to an uploaded list, with `extra` fields.
        func compose(list: String, extra: [(String, String)] = []) -> RouterClient.Answer {
            let fields =
                [
                    ("csrf", csrf), ("intent", "send"), ("category", "message"), ("title", "Weekly"),
                    ("body", "Read it"), ("to", "list"), ("idempotency", UUID().uuidString),
                ] + extra
            var body = fields.map { name, value in
                "--XyZ\r\nContent-Disposition: form-data; name=\"\(name)\"\r\n\r\n\(value)\r\n"
            }.joined()
            body += "--XyZ\r\nContent-Disposition: form-data; name=\"recipients\"; filename=\"list.txt\"\r\n"
            body += "Content-Type: text/plain\r\n\r\n\(list)\r\n--XyZ--\r\n"
            return fixture.request(
                "POST", "/console/compose", key: nil, json: body,
                headers: ["cookie": cookie, "content-type": "multipart/form-data; boundary=XyZ"])
        }
    }
}
