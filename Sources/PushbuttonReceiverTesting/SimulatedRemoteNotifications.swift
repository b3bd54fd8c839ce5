import Foundation
import PushbuttonReceiver
import PushbuttonSupport

/// APNs registration without a device: counts the requests for a token, and hands a token of its own to a
/// ``NotificationStartup`` as the app delegate would.
public final class SimulatedRemoteNotifications: RemoteNotificationRegistration {
    private let count = Locked(0)
    /// The token ``deliverToken(to:)`` hands over (32 bytes, as APNs' are).
    public let token: Data

    /// APNs that answers with `token`.
    public init(token: Data = Data((0..<32).map { UInt8($0) })) { self.token = token }

    /// How many times the app asked for a token.
    public var registrations: Int { count.withLock { $0 } }

    /// Counts the request; the token comes with ``deliverToken(to:)``.
    @MainActor
    public func registerForRemoteNotifications() { count.withLock { $0 += 1 } }

    /// APNs answers: the app delegate passes ``token`` to `startup`.
    public func deliverToken(to startup: NotificationStartup) async throws {
        try await startup.deviceTokenReceived(token)
    }
}
