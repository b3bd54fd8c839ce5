// The whole path, server to tap: the mock APNs delivers what it accepts to the simulated center.
import Foundation
import Pushbutton
import PushbuttonAPNs
import PushbuttonAPNsMock
import PushbuttonReceiver
import PushbuttonReceiverTesting

// snippet.hide
func wholePath(
    center: SimulatedNotificationCenter, temporaryDirectory: String, providerKey: MockProviderKey,
    deviceToken: String, notification: APNsNotification, client: APNsClient
) async throws {
    // snippet.show
    let mock = try await MockAPNs.start(
        MockAPNsConfiguration(security: .selfSigned(directory: temporaryDirectory), keys: [providerKey]))
    mock.forward(to: center, token: deviceToken)  // or forward(token:to:) for your own handling

    _ = await client.send(notification)  // your server code, pointed at mock.environment
    await mock.deliveriesSettled()
    let delivery = try await center.tapButton(notification.apnsID.uuidString.lowercased(), action: "like")
    // snippet.hide
    print(delivery)
}
