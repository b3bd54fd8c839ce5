import Foundation
import Pushbutton

/// What the demo sends: the Chatter app's buttons, defined in Swift, and six notifications that use them (one to a device that uninstalled the app).
enum DemoContent {
    static let topic = "com.example.chatter"
    static let keyID = "DEMOKEY001"
    static let teamID = "DEMOTEAM01"

    /// The app's categories, as an app would declare them in code (the demo writes them out as a manifest).
    static let manifest = Manifest(
        locales: ["en", "fr"], builtins: ["pushbutton.yes_no", "pushbutton.like_share"],
        categories: [
            Category(
                "message",
                actions: [
                    .textInput(
                        "reply", title: localized("action.reply", "Reply", "Répondre"),
                        buttonTitle: localized("action.reply.send", "Send", "Envoyer"),
                        placeholder: localized("action.reply.placeholder", "Your message", "Votre message")),
                    Action(
                        "like", title: localized("action.like", "Like", "J’aime"), options: [.authenticationRequired]),
                    Action(
                        "delete", title: localized("action.delete", "Delete", "Supprimer"),
                        options: [.destructive, .authenticationRequired]),
                ],
                hiddenPreviewsBodyPlaceholder: localized("message.hidden", "New message", "Nouveau message"),
                options: [.customDismissAction]),
            Category(
                "friend_request",
                actions: [
                    Action("accept", title: localized("action.accept", "Accept", "Accepter"), options: [.foreground]),
                    Action(
                        "ignore", title: localized("action.ignore", "Ignore", "Ignorer"),
                        options: [.authenticationRequired]),
                ]),
            Category(
                "order_shipped",
                actions: [
                    Action(
                        "track", title: localized("action.track", "Track", "Suivre"), options: [.foreground],
                        icon: .system("shippingbox"))
                ], options: [.allowInCarPlay]),
        ])

    private static func localized(_ key: String, _ english: String, _ french: String) -> LocalizedText {
        .localized(key: key, values: ["en": english, "fr": french])
    }

    /// One notification of the demo: what it shows, and why it is in the demo.
    struct Notification {
        var name: String
        var purpose: String
        var payload: Payload
        var toDeadDevice = false
    }

    static func notifications(backend: String) -> [Notification] {
        var lunch = Payload.interactive(category: "message", title: "Anna", body: "Lunch tomorrow at noon?")
        lunch.addAction(
            ActionSpec("pushbutton.callback", arguments: ["url": .string(backend + "/messages/42/like")]),
            forButton: "like")
        lunch.addBodyAction(ActionSpec("pushbutton.deeplink", arguments: ["url": "chatter://conversation/anna"]))

        var friend = Payload.interactive(
            category: "friend_request", title: "Ben wants to be friends", body: "You have 3 friends in common.")
        friend.actionArguments = ["user_id": .integer(7), "source": .string("suggestions")]

        let reply = Payload.interactive(category: "message", title: "Chloé", body: "Are you coming tonight?")

        var party = Payload.interactive(category: "", body: "Are you coming to the party on Friday?")
        party.setDynamicButtons([
            DynamicButton("going", title: "Going", options: [.authenticationRequired]),
            DynamicButton("maybe", title: "Maybe", options: [.authenticationRequired]),
        ])
        party.addAction(
            ActionSpec("rsvp", arguments: ["event": .integer(9), "answer": .string("yes")]), forButton: "going")

        var digest = Payload.interactive(category: "message", title: "Team", body: "3 new messages in #launch")
        digest.addDismissAction(ActionSpec("mark_read", arguments: ["thread": .string("launch")]))

        let stale = Payload.interactive(category: "message", title: "Dan", body: "Still there?")
        return [
            Notification(
                name: "lunch", purpose: "per-button actions: Like calls the backend, the body opens a deep link",
                payload: lunch),
            Notification(name: "friend", purpose: "action_args for the app's own 'accept' action", payload: friend),
            Notification(name: "reply", purpose: "a text reply", payload: reply),
            Notification(
                name: "party", purpose: "buttons defined by the payload itself (dynamic category)", payload: party),
            Notification(name: "digest", purpose: "an action when it is dismissed", payload: digest),
            Notification(
                name: "stale", purpose: "to a device that uninstalled the app", payload: stale, toDeadDevice: true),
        ]
    }
}
