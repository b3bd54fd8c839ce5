import Foundation
import Pushbutton
import PushbuttonStore
import PushbuttonSupport
import Testing

@testable import PushbuttonGateway

/// Issue 36's experiments through the routes (in process, SQLite, no workers): the header's contract refused
/// with the field's path, each device given the variant ``ExperimentAssignment`` computes (its payload naming
/// it), the holdout and the devices outside the test group recorded and not queued, and the experiment read back.
@Suite(.timeLimit(.minutes(3)))
struct ExperimentIntakeTests {
    typealias F = GatewayFixture
    static let now = Date(timeIntervalSince1970: 1_796_126_400)

    func paths(_ answer: RouterClient.Answer) -> [String] {
        answer.json?.objectValue?["error"]?.objectValue?["diagnostics"]?.arrayValue?.compactMap {
            $0.objectValue?["path"]?.stringValue
        } ?? []
    }

    static let variants =
        #""variants": [{"name": "A", "share": 30, "title": "Hi", "body": "A"}, "#
        + #"{"name": "B", "share": 30, "title": "Hey", "body": "B"}, {"name": "C", "share": 30, "body": "C"}]"#

    func campaign(_ fixture: RouterClient, header: String, tokens: [String]) -> RouterClient.Answer {
        fixture.request("POST", "/v1/apps/chat/campaigns", json: header + "\n" + tokens.joined(separator: "\n"))
    }

    @Test func aBadExperimentIsRefusedWithThePath() throws {
        let fixture = try RouterClient(now: { Self.now })
        let token = F.token(1)
        let cases: [(String, String)] = [
            (#"{"category": "message", "variants": [{"name": "A", "share": 100}]}"#, "variants"),
            (
                #"{"category": "message", "variants": [{"name": "A", "share": 50, "body": "x"}, "#
                    + #"{"name": "B", "share": 50, "category": "nope", "body": "y"}]}"#, "variants[1].category"
            ),
            (
                #"{"category": "message", "variants": [{"name": "A", "share": 50, "body": "x"}, "#
                    + #"{"name": "A", "share": 40, "body": "y"}]}"#, "variants[1].name"
            ),
            (
                #"{"category": "message", "variants": [{"name": "A", "share": 50, "body": "x"}, "#
                    + #"{"name": "B", "share": 40, "body": "y"}]}"#, "variants"
            ),
            (
                #"{"category": "message", "holdout": 60, "variants": [{"name": "A", "share": 20, "body": "x"}, "#
                    + #"{"name": "B", "share": 20, "body": "y"}]}"#, "holdout"
            ),
            (#"{"category": "message", "body": "x", \#(Self.variants), "holdout": 10, "test_share": 20}"#, "metric"),
            (
                #"{"category": "message", \#(Self.variants), "holdout": 10, "test_share": 20, "#
                    + #""metric": "button:like", "decide_after": "PT10S"}"#, "decide_after"
            ),
            (
                #"{"category": "message", \#(Self.variants), "holdout": 10, "test_share": 20, "#
                    + #""metric": "button:share", "decide_after": "PT2H"}"#, "variants[0].category"
            ),
            (#"{"category": "message", \#(Self.variants), "holdout": 10, "control": "Z"}"#, "control"),
            (
                #"{"category": "message", "variants": [{"name": "A", "share": 50, "body": "x", "to": 1}, "#
                    + #"{"name": "B", "share": 50, "body": "y"}]}"#, "variants[0].to"
            ),
            (#"{"category": "message", "body": "x", "holdout": 10}"#, "holdout"),
        ]
        for (header, path) in cases {
            let answer = campaign(fixture, header: header, tokens: [token])
            #expect(answer.status == 422, "\(header)")
            #expect(paths(answer).contains(path), "\(header): \(paths(answer))")
        }
        // A single send cannot run an experiment: the answer says to send a campaign.
        let single = fixture.request(
            "POST", "/v1/apps/chat/notifications",
            json: #"{"to": {"tokens": ["\#(token)"]}, "category": "message", \#(Self.variants)}"#)
        #expect(single.status == 422)
        #expect(paths(single) == ["variants"])
        #expect(single.body.contains("campaign"))
    }

    @Test func eachDeviceGetsItsAssignedVariantAndTheHoldoutNothing() throws {
        let fixture = try RouterClient(now: { Self.now })
        let tokens = (0..<300).map { F.token($0) }
        let answer = campaign(
            fixture, header: #"{"category": "message", \#(Self.variants), "holdout": 10}"#, tokens: tokens)
        #expect(answer.status == 202, "\(answer.body)")
        let id = try #require(answer.json?.objectValue?["id"]?.stringValue)
        let assignment = ExperimentAssignment(experiment: id, shares: [30, 30, 30], testShare: nil)
        let names = ["A", "B", "C"]
        var expected: [String: String] = [:]
        for token in tokens {
            if case .variant(let index) = assignment.place(of: token) { expected[token] = names[index] }
        }
        let leased = try fixture.store.lease(limit: 1000, duration: 30, now: Self.now)
        var got: [String: String] = [:]
        for delivery in leased {
            let payload = try JSONParser.parse(delivery.payload).objectValue
            let actions = payload?["pushbutton"]?.objectValue
            #expect(actions?["campaign"]?.stringValue == id)
            got[delivery.token] = actions?["variant"]?.stringValue
            let body = payload?["aps"]?.objectValue?["alert"]?.objectValue?["body"]?.stringValue
            #expect(body == got[delivery.token], "each variant's own text")
        }
        #expect(got == expected)
        // About 10% held out, counted over 10,000 tokens: the campaign's id (the hash's salt) is random, and 300
        // tokens' count strays past 20..<40 in about 1 run in 16.
        let heldOut = (0..<10_000).count { assignment.place(of: F.token($0)) == .holdout }
        #expect((800..<1200).contains(heldOut), "about 10% held out")
        let report = fixture.request("GET", "/v1/campaigns/\(id)/experiment")
        #expect(report.status == 200, "\(report.body)")
        let object = try #require(report.json?.objectValue)
        #expect(object["state"] == "running")
        #expect(object["holdout"]?.objectValue?["recipients"]?.integerValue == Int64(tokens.count - expected.count))
        #expect(object["variants"]?.arrayValue?.map { $0.objectValue?["name"]?.stringValue } == ["A", "B", "C"])
        // A campaign without an experiment has no experiment; another app's key sees no campaign of its own.
        let plain = campaign(fixture, header: #"{"category": "message", "body": "x"}"#, tokens: [tokens[0]])
        let plainID = try #require(plain.json?.objectValue?["id"]?.stringValue)
        #expect(fixture.request("GET", "/v1/campaigns/\(plainID)/experiment").status == 404)
        #expect(fixture.request("GET", "/v1/campaigns/\(id)/experiment", key: nil).status == 401)
        // The console's page of the experiment, signed in; none for the plain campaign.
        let signedIn = ConsoleSignInTests.signIn(fixture.router)
        let cookie = try #require(
            signedIn.headers.first { $0.name == "set-cookie" }?.value.split(separator: ";").first.map(String.init))
        func page(_ campaign: String) -> HTTPResponse {
            fixture.router.handle(
                HTTPRequest(
                    method: "GET", path: "/console/campaigns/\(campaign)/experiment", headers: ["cookie": cookie],
                    body: [], authority: "gw.example:8443", peer: "203.0.113.7"))
        }
        let shown = page(id)
        #expect(shown.status == 200)
        #expect(String(decoding: shown.body, as: UTF8.self).contains(id))
        #expect(page(plainID).status == 404)
    }

    @Test func aTestPhaseQueuesOnlyTheTestGroupAndLaterPagesFollowTheSameRule() throws {
        let fixture = try RouterClient(now: { Self.now })
        let tokens = (0..<400).map { F.token($0) }
        let header =
            #"{"category": "message", \#(Self.variants), "holdout": 10, "test_share": 30, "#
            + #""metric": "button:like", "decide_after": "PT2H"}"#
        let answer = campaign(fixture, header: header, tokens: Array(tokens[..<200]))
        #expect(answer.status == 202, "\(answer.body)")
        let id = try #require(answer.json?.objectValue?["id"]?.stringValue)
        let page = fixture.request(
            "POST", "/v1/campaigns/\(id)/recipients", json: tokens[200...].joined(separator: "\n"))
        #expect(page.status == 202, "\(page.body)")
        let assignment = ExperimentAssignment(experiment: id, shares: [30, 30, 30], testShare: 30)
        let expected = Set(
            tokens.filter { assignment.place(of: $0) != .holdout && assignment.inTestGroup($0) })
        let leased = try fixture.store.lease(limit: 1000, duration: 30, now: Self.now)
        #expect(Set(leased.map(\.token)) == expected)
        let report = try #require(fixture.request("GET", "/v1/campaigns/\(id)/experiment").json?.objectValue)
        #expect(report["state"] == "testing")
        #expect(report["decide_after"]?.stringValue == RFC3339.text(Self.now + 7200))
        let waiting = tokens.filter { assignment.place(of: $0) != .holdout && !assignment.inTestGroup($0) }
        #expect(report["waiting"]?.integerValue == Int64(waiting.count))
    }

    /// The roll-out holds its recipients by quiet hours as the intake holds a campaign's: quiet hours 22:00–08:00
    /// in Paris, a test phase sent at 13:00 and decided at 23:00 queues the rest held until 08:00 (counted
    /// `held`); the same experiment with `ignore_quiet_hours` rolls out at once.
    @Test func theRollOutHoldsItsRecipientsByQuietHours() throws {
        let clock = Locked(Self.now)  // 2026-12-01T12:00Z: 13:00 in Paris
        let fixture = try RouterClient(now: { clock.withLock { $0 } }) { text in
            text.replacingOccurrences(
                of: #"{"id": "chat", "#,
                with:
                    #"{"id": "chat", "quiet_hours": {"start": "22:00", "end": "08:00"}, "default_time_zone": "Europe/Paris", "#
            )
        }
        let tokens = (0..<200).map { F.token($0) }
        var ids: [String] = []
        for extra in ["", #", "ignore_quiet_hours": true"#] {
            let header =
                #"{"category": "message", \#(Self.variants), "holdout": 10, "test_share": 30, "#
                + #""metric": "any_button", "decide_after": "PT10H""# + extra + "}"
            let answer = campaign(fixture, header: header, tokens: tokens)
            #expect(answer.status == 202, "\(answer.body)")
            ids.append(try #require(answer.json?.objectValue?["id"]?.stringValue))
        }
        // Leases long enough that nothing leased comes back in this test.
        let day = 2 * 86_400.0
        let tested = try fixture.store.lease(limit: 1000, duration: day, now: Self.now)
        let late = Self.now + 10 * 3600 + 1  // 23:00 in Paris: both decisions are due
        clock.withLock { $0 = late }
        #expect(fixture.router.services.experiments.decideDue(now: late) == 2)
        let atOnce = try fixture.store.lease(limit: 1000, duration: day, now: late)
        let first = ExperimentAssignment(experiment: ids[0], shares: [30, 30, 30], testShare: 30)
        let counts = fixture.request("GET", "/v1/campaigns/\(ids[0])").json?.objectValue?["counts"]?.objectValue
        #expect(
            counts?["held"]?.integerValue
                == Int64(tokens.count { first.place(of: $0) != .holdout && !first.inTestGroup($0) }),
            "\(String(describing: counts))")
        let morning = Self.now + 19 * 3600  // 08:00 in Paris
        #expect(try fixture.store.lease(limit: 1000, duration: day, now: morning - 60).isEmpty)
        let held = try fixture.store.lease(limit: 1000, duration: day, now: morning)
        for (index, id) in ids.enumerated() {
            let assignment = ExperimentAssignment(experiment: id, shares: [30, 30, 30], testShare: 30)
            let test = Set(tokens.filter { assignment.place(of: $0) != .holdout && assignment.inTestGroup($0) })
            let waiting = Set(tokens.filter { assignment.place(of: $0) != .holdout && !assignment.inTestGroup($0) })
            #expect(!waiting.isEmpty)
            #expect(Set(tested.filter { $0.notificationID == id }.map(\.token)) == test, "the test group at once")
            let now = Set(atOnce.filter { $0.notificationID == id }.map(\.token))
            let later = Set(held.filter { $0.notificationID == id }.map(\.token))
            if index == 0 {
                #expect(now.isEmpty && later == waiting, "held until 08:00 in Paris")
            } else {
                #expect(now == waiting && later.isEmpty, "ignore_quiet_hours: at once")
            }
        }
    }

    @Test func theAssignmentIsStableAndHonoursTheShares() {
        // Pinned: the rule is a contract (any process, any release, gives the same bucket).
        #expect(
            ExperimentAssignment.bucket(salt: "variant", experiment: "c_1", token: String(repeating: "ab", count: 32))
                == Self.pinnedBucket)
        let assignment = ExperimentAssignment(experiment: "c_split", shares: [45, 45], testShare: 20)
        var counts = [0, 0, 0]
        var tested = 0
        for number in 0..<20_000 {
            let token = String(format: "%064x", number * 7919)
            switch assignment.place(of: token) {
            case .variant(let index): counts[index] += 1
            case .holdout: counts[2] += 1
            }
            if assignment.inTestGroup(token) { tested += 1 }
            #expect(assignment.place(of: token.uppercased()) == assignment.place(of: token))
        }
        // 20,000 draws: a share's standard error is about 0.35 points; 1.5 points is over four of them.
        #expect(abs(Double(counts[0]) / 200 - 45) < 1.5 && abs(Double(counts[1]) / 200 - 45) < 1.5)
        #expect(abs(Double(counts[2]) / 200 - 10) < 1.5)
        #expect(abs(Double(tested) / 200 - 20) < 1.5)
        #expect(ISODuration.seconds("PT2H") == 7200 && ISODuration.seconds("P1DT30M") == 88_200)
        #expect(
            ISODuration.seconds("P1W") == nil && ISODuration.seconds("PT") == nil && ISODuration.seconds("2H") == nil)
    }

    /// Computed independently (FNV-1a 64 and fmix64 in Python) from the documented rule.
    static let pinnedBucket = 3497
}
