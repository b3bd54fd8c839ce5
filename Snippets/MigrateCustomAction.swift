// Another SDK's custom action as an entry in Pushbutton's action registry, with the same `action_args`.
import Pushbutton
import PushbuttonReceiver

// snippet.hide
/// The app's invitations API, as an app has it.
struct Invitations: Sendable {
    func accept(_ invitationID: String?, openedApp: Bool) async throws {}
}
func registerAccept(router: ResponseRouter, invitations: Invitations) throws {
    // snippet.show
    try router.registry.register("accept") { context in
        let invitation = context.arguments["invitation_id"]?.stringValue  // from the payload's action_args
        try await invitations.accept(invitation, openedApp: context.situation == .foregroundButton)
    }
    // snippet.hide
}
