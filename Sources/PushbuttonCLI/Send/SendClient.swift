import Foundation
import Pushbutton
import PushbuttonAPNs

/// What `pushbutton send` sends with: one client (one app's credentials), or the clients of an apps file,
/// where each notification goes to its topic's app in the environment its line named.
enum SendClient: Sendable {
    case one(APNsClient)
    case many(APNsClients, environments: [String: APNsEnvironment])

    func send<Notifications: AsyncSequence & Sendable>(
        _ notifications: Notifications, maximumInFlight: Int, input: SendInput,
        onResult: (APNsNotification, APNsResult) async -> Void
    ) async where Notifications.Element == APNsNotification, Notifications.Failure == Never {
        switch self {
        case .one(let client):
            // The notifications' sequence never throws (input errors are lines' results). No `try?` here: Swift
            // 6.3.1's optimizer crashes on it in release builds (an ownership verifier error).
            await client.send(notifications, maximumInFlight: maximumInFlight, onResult: onResult)
        case .many(let clients, let environments):
            let routed = notifications.map { @Sendable notification in
                (notification, input.environment(of: notification.apnsID).flatMap { environments[$0] })
            }
            await clients.send(routed, maximumInFlight: maximumInFlight, onResult: onResult)
        }
    }

    func shutdown() async {
        switch self {
        case .one(let client): await client.shutdown()
        case .many(let clients, _): await clients.shutdown()
        }
    }
}
