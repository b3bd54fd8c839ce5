// An app's own action that tells its backend durably: `context.deliver` goes through the router's backend (the
// outbox, or ImmediateDelivery) as the built-in callback does, with an idempotency key derived from the tap.
import Pushbutton
import PushbuttonReceiver

// snippet.hide
/// The app's local store, as an app has it.
struct Invitations: Sendable {
    func markAccepted(_ invitationID: Int64?) async throws {}
}
func registerAccept(on router: ResponseRouter, invitations: Invitations) throws {
    // snippet.show
    try router.registry.register("accept") { context in
        let invitation = context.arguments["invitation_id"]?.integerValue
        try await invitations.markAccepted(invitation)  // the app's own work
        // Committed before the completion handler; sent at once with ImmediateDelivery; once per tap.
        try await context.deliver(
            to: "https://api.example.com/invitations/\(invitation ?? 0)/accept", body: ["via": "notification"])
    }
    // snippet.hide
}
