// Many notifications with a bounded number in flight; results arrive as each answer does.
import Pushbutton
import PushbuttonAPNs

// snippet.hide
/// Where the server keeps outcomes.
actor Results {
    func record(_ token: DeviceToken, _ result: APNsResult) {}
}

func sendMany(client: APNsClient, notifications: [APNsNotification], results: Results) async throws {
    // What a file or a database read yields: reading can fail, so the send needs `try`.
    let notifications = AsyncThrowingStream<APNsNotification, any Error> { continuation in
        for notification in notifications { continuation.yield(notification) }
        continuation.finish()
    }
    // snippet.show
    try await client.send(notifications, maximumInFlight: 1000) { notification, result in
        await results.record(notification.deviceToken, result)
    }
    await client.shutdown()  // finishes what is in flight, then closes the connections
    // snippet.hide
}
