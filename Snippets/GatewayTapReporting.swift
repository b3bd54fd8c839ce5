// The app registers its device token with the gateway and reports every response through the durable outbox.
import Foundation
import PushbuttonOutbox
import PushbuttonReceiver

// snippet.hide
/// The signed-in user.
struct User { let id: String }

func reportTaps(router: ResponseRouter, deviceToken: Data, user: User) async throws {
    // snippet.show
    let outbox = try Outbox.applicationSupport()  // creates its folder at first launch
    let client = try GatewayClient(
        connection: GatewayConnection(
            baseURL: "https://push.example.com", app: "chat", publishableKey: "pb_pk_…"),
        outbox: outbox)
    client.attach(to: router)
    // application(_:didRegisterForRemoteNotificationsWithDeviceToken:)
    try await client.register(deviceToken: deviceToken, userID: user.id)
    // a background task, or at launch:
    try await outbox.run(sender: client.sender())
    // snippet.hide
}
