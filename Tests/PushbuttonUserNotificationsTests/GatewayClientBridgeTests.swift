import Foundation
import Pushbutton
import PushbuttonOutbox
import PushbuttonReceiver
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
