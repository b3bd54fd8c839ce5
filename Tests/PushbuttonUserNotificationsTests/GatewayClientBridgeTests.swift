import Foundation
import Pushbutton
import PushbuttonOutbox
import PushbuttonReceiver
import PushbuttonReceiverTesting
import PushbuttonSupport
import PushbuttonUserNotifications
import Testing
import UserNotificationsStandIn

/// The gateway client behind the Apple bridge: a response the system hands to Pushbutton's delegate is a tap
/// event in the outbox before the system's completion handler is called.
@Suite struct GatewayClientBridgeTests {
    @Test func aResponseThroughTheDelegateIsDurableBeforeTheCompletionHandler() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pb-bridge-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let system = UNUserNotificationCenter()
        let center = SystemNotificationCenter(center: system, locale: "en")
        let router = ResponseRouter(center: center)
        let outbox = try Outbox(path: directory.appendingPathComponent("outbox.sqlite").path)
        let client = try GatewayClient(
            connection: GatewayConnection(baseURL: "https://push.example.com", app: "chat", publishableKey: "pb_pk_x"),
            outbox: outbox)
        client.attach(to: router)
        center.installResponseHandler(router)
        let installed = try #require(system.delegate as? PushbuttonNotificationDelegate)
        system.setNotificationCategories([
            UNNotificationCategory(
                identifier: "message",
                actions: [UNNotificationAction(identifier: "open", title: "Open", options: [.foreground])],
                intentIdentifiers: [])
        ])
        // The token as APNs hands it to the app delegate.
        try await client.register(deviceToken: Data((0..<32).map { UInt8($0) }), locale: "en-GB", appVersion: "3.0")
        let token = try #require(await client.deviceToken)
        #expect(token == (0..<32).map { String(format: "%02x", $0) }.joined())

        let userInfo: [AnyHashable: Any] = [
            "aps": ["alert": "Lunch?", "category": "message"],
            "pushbutton": ["v": 1, "id": "n_42", "campaign": "c_7"],
        ]
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            installed.userNotificationCenter(
                system,
                didReceive: UNNotificationResponse(
                    standInNotification: StandIn.notification("apns-1", userInfo: userInfo), actionIdentifier: "open")
            ) { continuation.resume() }
        }
        let taps = try await outbox.entries(.pending).filter { $0.url.hasSuffix("/v1/apps/chat/taps") }
        let event = try #require(taps.first?.body?.objectValue?["taps"]?.arrayValue?.first?.objectValue)
        #expect(taps.count == 1)
        #expect(event["notification"] == "n_42")
        #expect(event["campaign"] == "c_7")
        #expect(event["category"] == "message")
        #expect(event["response"] == "button")
        #expect(event["button"] == "open")
        #expect(event["foreground"] == true)
        #expect(event["token"]?.stringValue == token)
    }
}

/// An immediate delivery holds a background task assertion, and stops when iOS says its time is running out.
@Suite struct BackgroundWindowTests {
    @Test func theAttemptHoldsABackgroundTaskAndStopsWhenItExpires() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pb-window-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let outbox = try Outbox(path: directory.appendingPathComponent("taps.sqlite").path)
        let clock = ManualClock()
        let backend = ImmediateDelivery(
            outbox: outbox, sender: NeverAnswers(), budget: .seconds(15), window: UIKitBackgroundWindow(),
            clock: clock)
        let outcomes = Locked([ImmediateDelivery.Attempt]())
        backend.observe { outcome in outcomes.withLock { $0.append(outcome) } }
        let tap = Task {
            try await backend.deliver(
                BackendRequest(
                    url: "https://api.example.com/like", idempotencyKey: "window-1", notificationIdentifier: "n1",
                    actionIdentifier: "like"))
        }
        await clock.waitForSleepers()  // the budget's timer: the background task is begun by now
        let open = await MainActor.run { UIApplication.shared.standInOpenBackgroundTasks }
        #expect(open.contains("Pushbutton delivery"))
        await MainActor.run { UIApplication.shared.standInExpireBackgroundTasks() }
        try await tap.value  // returns without the clock reaching the budget
        #expect(outcomes.withLock { $0 } == [.expired])  // at once, not when the cancelled drain returns
        let stillOpen = await MainActor.run { UIApplication.shared.standInOpenBackgroundTasks }
        #expect(!stillOpen.contains("Pushbutton delivery"))
        let status = try await outbox.status()
        #expect(status.delivered == 0)
        #expect(status.pending + status.inFlight == 1)  // waits for the next worker
    }
}

/// A network that never answers: waits until its task is cancelled.
struct NeverAnswers: OutboxSender {
    func send(_ request: OutgoingRequest) async throws -> Int {
        let (never, _) = AsyncStream.makeStream(of: Void.self)
        for await _ in never {}
        throw CancellationError()
    }
}
