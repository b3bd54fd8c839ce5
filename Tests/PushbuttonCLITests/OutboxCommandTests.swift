import Foundation
import Pushbutton
import PushbuttonOutbox
import PushbuttonReceiver
import Testing

/// `pushbutton outbox` and `pushbutton stats`, run as a user would.
@Suite(.timeLimit(.minutes(5))) struct OutboxCommandTests {
    struct Refusing: OutboxSender {
        func send(_ request: OutgoingRequest) async throws -> Int { 403 }
    }

    static func database() throws -> (URL, String) {
        let directory = try CLI.temporaryDirectory()
        return (directory, directory.appendingPathComponent("taps.sqlite").path)
    }

    static func request(_ key: String) -> BackendRequest {
        BackendRequest(
            url: "https://api.example.com/like/\(key)", body: ["k": .string(key)], idempotencyKey: key,
            notificationIdentifier: "n", actionIdentifier: "like")
    }

    @Test func statusAndDrainToALocalBackend() async throws {
        let (directory, path) = try Self.database()
        defer { try? FileManager.default.removeItem(at: directory) }
        let outbox = try Outbox(path: path)
        for key in ["a", "b", "c"] { try await outbox.enqueue(Self.request(key)) }
        let before = try await CLI.run(["outbox", "status", path])
        #expect(before.status == 0)
        #expect(before.stdout.contains("pending:        3") && before.stdout.contains("oldest pending: "))
        let receiver = try TapReceiver()
        defer { receiver.stop() }
        let drain = try await CLI.run(["outbox", "drain", path, "--endpoint", receiver.endpoint])
        #expect(drain.status == 0, "\(drain.stderr)")
        #expect(drain.stdout == "attempted 3, delivered 3, retried 0, dead-lettered 0, recovered 0, remaining 0\n")
        #expect(try receiver.keys().sorted() == ["a", "b", "c"])
        let after = try JSONParser.parse(try await CLI.run(["outbox", "status", path, "--json"]).stdout)
        #expect(after["delivered"] == 3 && after["pending"] == 0 && after["oldest_pending_age_seconds"] == .null)
    }

    @Test func deadLettersAreListedWithTheirLastErrorAndCanBePurged() async throws {
        let (directory, path) = try Self.database()
        defer { try? FileManager.default.removeItem(at: directory) }
        let outbox = try Outbox(path: path)
        try await outbox.enqueue(Self.request("refused"))
        _ = try await outbox.drain(sender: Refusing())
        let listed = try await CLI.run(["outbox", "dead", path])
        #expect(listed.status == 0)
        #expect(
            listed.stdout.contains(
                "POST https://api.example.com/like/refused key refused, 1 attempt(s): HTTP 403: the server refused the request"
            ))
        #expect(listed.stdout.hasSuffix("1 dead-lettered\n"))
        let json = try JSONParser.parse(try await CLI.run(["outbox", "dead", path, "--json", "--purge"]).stdout)
        #expect(json.arrayValue?.first?["idempotency_key"] == "refused")
        #expect(try await CLI.run(["outbox", "dead", path]).stdout == "0 dead-lettered\n")
    }

    @Test func statsSummariseTheTapLog() async throws {
        let (directory, path) = try Self.database()
        defer { try? FileManager.default.removeItem(at: directory) }
        let outbox = try Outbox(path: path)
        let notification = DeliveredNotification(
            identifier: "n", date: Date(), userInfo: [:], categoryIdentifier: "message")
        for _ in 0..<4 { try await outbox.recordDelivered(notification) }
        for (action, situation) in [
            ("like", Situation.backgroundButton), ("like", .backgroundButton),
            (SystemIdentifiers.defaultAction, .bodyTap),
        ] {
            try await outbox.record(
                RoutingReport(
                    response: NotificationResponse(notification: notification, actionIdentifier: action),
                    situation: situation,
                    categoryIdentifier: "message", steps: [], notes: [], completedAfter: .zero,
                    completedByDeadline: false))
        }
        let result = try await CLI.run(["stats", path])
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("3 responses to 4 recorded deliveries\n\nmessage: 3 responses, 4 delivered\n"))
        #expect(result.stdout.contains("  like                   2   66.7% of responses   50.0% of deliveries"))
        let json = try JSONParser.parse(try await CLI.run(["stats", path, "--json"]).stdout)
        #expect(json["categories"]?.arrayValue?.first?["actions"]?.arrayValue?.last?["action"] == "(body)")
    }

    @Test func wrongUseExitsWithAReason() async throws {
        let missing = try await CLI.run(["outbox", "status", "/no/such/outbox.sqlite"])
        #expect(
            missing.status == 1
                && missing.stderr == "pushbutton: error: no outbox database at '/no/such/outbox.sqlite'\n")
        #expect(try await CLI.run(["outbox", "explode", "x.sqlite"]).status == 2)
        #expect(try await CLI.run(["outbox", "drain", "x.sqlite", "--base-backoff", "-1"]).status == 2)
        #expect(try await CLI.run(["stats", "/no/such/outbox.sqlite"]).status == 1)
    }
}
