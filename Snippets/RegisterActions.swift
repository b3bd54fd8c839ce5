// App-defined actions, looked up by the button's identifier, with the payload's `action_args`.
import Foundation
import Pushbutton
import PushbuttonReceiver

// snippet.hide
/// The app's own API client and analytics, as an app has them.
struct ChatAPI: Sendable {
    func like(messageID: Int64?) async throws {}
}
struct Analytics: Sendable {
    func log(_ action: String, _ situation: Situation) {}
}
func registerActions(on router: ResponseRouter, api: ChatAPI, analytics: Analytics) throws {
    // snippet.show
    try router.registry.register("like") { context in
        try await api.like(messageID: context.arguments["message_id"]?.integerValue)
    }
    router.onResponse { response, situation in
        analytics.log(response.actionIdentifier, situation)
    }
    // snippet.hide
}
