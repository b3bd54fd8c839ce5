// What Chatter's buttons do: Reply (text input), Like (background) and Delete, with the payload's `action_args`.
import Foundation
import Pushbutton
import PushbuttonReceiver

enum ChatterActions {
    /// Chatter's own backend (the messages API); change it for yours.
    static let backend = "https://chatter.example.com"

    static func register(on router: ResponseRouter) throws {
        try router.registry.register("reply") { context in
            let message = context.arguments["message_id"]?.stringValue ?? "?"
            // Durable, as the built-in callback: committed before the completion handler, sent at once, once per tap.
            try await context.deliver(
                to: "\(backend)/messages/\(message)/replies", body: ["text": .string(context.replyText ?? "")])
        }
        try router.registry.register("like") { context in
            print("Chatter: liked \(context.arguments["message_id"]?.stringValue ?? "?") (\(context.situation))")
        }
        try router.registry.register("delete") { context in
            print("Chatter: delete \(context.arguments["message_id"]?.stringValue ?? "?")")
        }
    }
}
