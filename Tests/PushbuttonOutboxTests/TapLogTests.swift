import Foundation
import Pushbutton
import PushbuttonReceiver
import PushbuttonReceiverTesting
import PushbuttonSQLite
import PushbuttonSupport
import Testing

@testable import PushbuttonOutbox

@Suite struct TapLogTests {
    static func report(_ action: String, situation: Situation, category: String = "message", text: String? = nil)
        -> RoutingReport
    {
        let notification = DeliveredNotification(
            identifier: UUID().uuidString, date: Date().addingTimeInterval(-3), userInfo: [:],
            categoryIdentifier: category)
        return RoutingReport(
            response: NotificationResponse(notification: notification, actionIdentifier: action, userText: text),
            situation: situation, categoryIdentifier: category, steps: [], notes: [], completedAfter: .zero,
            completedByDeadline: false)
    }

    @Test func summarisesCountsSharesAndRatesPerCategoryAndButton() async throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        let outbox = try Outbox(path: fixture.path)
        for _ in 0..<10 {
            try await outbox.recordDelivered(
                DeliveredNotification(identifier: "n", date: Date(), userInfo: [:], categoryIdentifier: "message"))
        }
        for _ in 0..<3 { try await outbox.record(Self.report("like", situation: .backgroundButton)) }
        try await outbox.record(Self.report(SystemIdentifiers.defaultAction, situation: .bodyTap))
        try await outbox.record(Self.report("ok", situation: .backgroundButton, category: "quiet"))
        let summary = try await outbox.tapSummary()
        #expect(summary.totalResponses == 5 && summary.totalDelivered == 10)
        let message = try #require(summary.categories.first)
        #expect(message.category == "message" && message.delivered == 10 && message.responses == 4)
        #expect(message.actions.map(\.action) == ["like", "(body)"])
        #expect(message.actions[0].rate == 0.3 && message.actions[0].shareOfResponses == 0.75)
        #expect((message.actions[0].medianLatency ?? 0) >= 3)
        #expect(summary.categories[1].actions.first?.rate == nil)
    }

    @Test func replyTextIsKeptOnlyWhenTheAppOptsIn() async throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        let private_ = try Outbox(path: fixture.path)
        try await private_.record(Self.report("reply", situation: .backgroundButton, text: "secret plans"))
        let rows = try await private_.query("SELECT reply_length, reply_text FROM taps")
        #expect(rows.first?[0] == .integer(12) && rows.first?[1] == .null)
        let open = try Outbox(path: fixture.path, options: OutboxOptions(recordReplyText: true))
        try await open.record(Self.report("reply", situation: .backgroundButton, text: "ok"))
        #expect(
            try await open.query("SELECT reply_text FROM taps ORDER BY id DESC LIMIT 1").first?.first == .text("ok"))
    }

    @Test func retentionKeepsTheLogBounded() async throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        let outbox = try Outbox(path: fixture.path, options: OutboxOptions(tapLogMaximumRows: 50))
        for _ in 0..<120 { try await outbox.record(Self.report("like", situation: .backgroundButton)) }
        #expect(try await outbox.tapSummary().totalResponses == 50)
    }

    @Test func attachingToARouterRecordsEveryResponse() async throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        let outbox = try Outbox(path: fixture.path)
        let center = SimulatedNotificationCenter()
        _ = try await center.requestAuthorization(options: [.alert])
        await center.setNotificationCategories([
            Pushbutton.Category("message", actions: [Action("like", title: "Like")])
        ])
        let router = ResponseRouter(center: center, backend: outbox)
        outbox.attach(to: router)
        await center.setResponseHandler(router)
        let id = await center.deliver(.interactive(category: "message", body: "x")).notification.identifier
        _ = try await center.tapButton(id, action: "like")
        while try await outbox.tapSummary().totalResponses < 1 { await Task.yield() }
        #expect(try await outbox.tapSummary().categories.first?.actions.first?.action == "like")
    }
}

@Suite struct TapLogClockTests {
    @Test func theTapLogTakesItsTimeFromTheInjectedClock() async throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        let outbox = try fixture.outbox()
        let delivered = DeliveredNotification(
            identifier: "n1", date: fixture.time.withLock { $0 }.addingTimeInterval(-90), userInfo: [:],
            categoryIdentifier: "message")
        try await outbox.record(
            RoutingReport(
                response: NotificationResponse(notification: delivered, actionIdentifier: "like"),
                situation: .backgroundButton, categoryIdentifier: "message", steps: [], notes: [],
                completedAfter: .zero, completedByDeadline: false))
        let row = try #require(try await outbox.query("SELECT at, latency FROM taps").first)
        #expect(row == [.real(1_800_000_000), .real(90)])
    }
}
