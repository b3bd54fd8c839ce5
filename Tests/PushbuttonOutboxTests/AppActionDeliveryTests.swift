import Foundation
import Pushbutton
import PushbuttonOutbox
import PushbuttonReceiver
import PushbuttonReceiverTesting
import PushbuttonSupport
import Testing

/// An app's own action delivers to its backend through the built-in callback's path: committed to the outbox
/// before the completion handler, sent at once, and once per tap however often the tap is routed.
@Suite struct AppActionDeliveryTests {
    static let manifest = Manifest(categories: [
        Pushbutton.Category("invite", actions: [Action("accept", title: "Accept", options: [])])
    ])

    @Test func aHandlersDeliveryIsDurableAndSentOncePerTap() async throws {
        let (outbox, directory) = try ImmediateDeliveryTests.outbox()
        defer { try? FileManager.default.removeItem(at: directory) }
        let sender = GateSender(hangs: false)
        let clock = ManualClock()  // never moves: no deadline involved
        let center = SimulatedNotificationCenter(locale: "en", clock: clock)
        _ = try await center.requestAuthorization(options: [.alert])
        await CategoryRegistrar(center: center).register(Self.manifest)
        func makeRouter() throws -> ResponseRouter {
            let router = ResponseRouter(
                center: center, backend: ImmediateDelivery(outbox: outbox, sender: sender, clock: clock), clock: clock)
            try router.registry.register("accept") { context in
                let invitation = context.arguments["invitation_id"]?.integerValue ?? 0
                try await context.deliver(
                    to: "https://api.example.com/invitations/\(invitation)/accept", body: ["via": "notification"])
            }
            return router
        }
        await center.setResponseHandler(try makeRouter())

        var payload = Payload.interactive(category: "invite", title: "Anna", body: "Join the team?")
        payload.actionArguments = ["invitation_id": .integer(7)]
        let shown = await center.deliver(payload)
        let tap = try await center.tapButton(shown.notification.identifier, action: "accept")
        #expect(await center.completionCallCount(tap.number) == 1)
        #expect(sender.sent.withLock { $0 } == ["https://api.example.com/invitations/7/accept"])

        // The same response routed again by the next launch's router: the outbox holds the key, nothing is sent twice.
        try await makeRouter().route(
            NotificationResponse(notification: shown.notification, actionIdentifier: "accept")
        ) {}
        #expect(sender.sent.withLock { $0 }.count == 1)
        let status = try await outbox.status()
        #expect(status.delivered == 1 && status.pending == 0)
    }

    @Test func anActionPerformedOutsideTheRouterCannotDeliver() async throws {
        let registry = ActionRegistry()
        try registry.register("accept") { context in
            try await context.deliver(to: "https://api.example.com/accept")
        }
        await #expect(throws: ActionDeliveryError.self) { try await registry.perform("accept") }
    }
}
