// What Chatter's buttons do: Reply (text input), Like (background) and Delete, with the payload's `action_args`.
import Foundation
import Pushbutton
import PushbuttonReceiver

enum ChatterActions {
    static func register(on router: ResponseRouter) throws {
        try router.registry.register("reply") { context in
            let text = context.replyText ?? ""
            print("Chatter: reply to \(context.arguments["message_id"]?.stringValue ?? "?"): \(text)")
        }
        try router.registry.register("like") { context in
            print("Chatter: liked \(context.arguments["message_id"]?.stringValue ?? "?") (\(context.situation))")
        }
        try router.registry.register("delete") { context in
            print("Chatter: delete \(context.arguments["message_id"]?.stringValue ?? "?")")
        }
    }
}
