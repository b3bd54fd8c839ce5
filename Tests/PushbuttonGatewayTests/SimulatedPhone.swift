import Foundation
import Pushbutton
import PushbuttonAPNsMock
import PushbuttonOutbox
import PushbuttonReceiver
import PushbuttonReceiverTesting
import PushbuttonSupport
import Testing

/// One simulated phone with the app installed: a notification center that the mock APNs delivers to, the
/// app's categories registered, its response router, its durable outbox, and the gateway client reporting
/// every response through that outbox.
struct SimulatedPhone {
    let token: String
    let center: SimulatedNotificationCenter
    let router: ResponseRouter
    let outbox: Outbox
    let client: GatewayClient

    init(token: String, fixture: GatewayFixture, directory: String, outboxOptions: OutboxOptions) async throws {
        self.token = token
        center = SimulatedNotificationCenter(locale: "fr-FR")
        _ = try await center.requestAuthorization(options: [.alert, .sound])
        let manifest = try #require(Manifest.parse(Array(GatewayFixture.manifest.utf8)).manifest)
        _ = await CategoryRegistrar(center: center).register(manifest)
        router = ResponseRouter(center: center)
        await center.setResponseHandler(router)
        outbox = try Outbox(path: directory + "/phone-\(token.suffix(4)).outbox", options: outboxOptions)
        client = try GatewayClient(
            connection: GatewayConnection(
                baseURL: fixture.base, app: "chat", publishableKey: GatewayFixture.publishable),
            outbox: outbox)
        client.attach(to: router)
        fixture.mock.forward(to: center, token: token)
    }

    /// The identifier of the one notification on screen whose text contains `text`.
    func shown(containing text: String) async throws -> String {
        let shown = await center.deliveredNotifications.first { $0.notification.body.contains(text) }
        return try #require(shown?.notification.identifier, "no notification with '\(text)' on \(token.prefix(8))")
    }

    /// Delivers what the outbox holds over `sender` (default: the network, with the publishable key).
    func drain(over sender: (any OutboxSender)? = nil, untilEmpty: Bool = true) async throws -> DrainReport {
        try await outbox.drain(
            sender: sender ?? client.sender(), untilEmpty: untilEmpty, timeLimit: .seconds(20))
    }
}

/// A phone without a network: every request fails before it leaves.
struct OfflineSender: OutboxSender {
    func send(_ request: OutgoingRequest) async throws -> Int { throw URLError(.notConnectedToInternet) }
}

/// A flaky network: the request reaches the server, but the first answer is lost on the way back.
final class LostAnswerSender: OutboxSender {
    let base: any OutboxSender
    private let sent = Locked(0)

    init(over base: any OutboxSender) { self.base = base }

    /// Requests sent so far (the first one's answer lost).
    var attempts: Int { sent.withLock { $0 } }

    func send(_ request: OutgoingRequest) async throws -> Int {
        let status = try await base.send(request)
        let drop = sent.withLock { count -> Bool in
            defer { count += 1 }
            return count == 0
        }
        if drop { throw URLError(.networkConnectionLost) }
        return status
    }
}
