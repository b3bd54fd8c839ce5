import Foundation
import Pushbutton
import PushbuttonSupport

/// Everything an app does at launch for notifications, after the router is installed: registers the manifest's
/// categories (merging), asks APNs for a device token, asks the user for permission (unless told not to), and
/// hands the device token, when the app delegate receives it, to whoever registers it (``DeviceTokenHandler``).
///
/// The categories come first so that they are in place however long the user takes to answer the permission
/// prompt; the token is asked for before the answer too, as APNs gives one whatever the answer.
/// `SystemNotificationCenter.start(...)` (PushbuttonUserNotifications) makes one; tests make one over
/// `SimulatedNotificationCenter`.
public final class NotificationStartup: Sendable {
    /// The center categories are registered on and permission is asked of.
    public let center: any UserNotificationCenter
    /// The categories to register.
    public let manifest: Manifest
    /// Whether, and for what, to ask the user's permission.
    public let authorization: AuthorizationRequest
    /// Who asks APNs for a token (`nil`: the app does not receive remote notifications).
    public let remoteNotifications: (any RemoteNotificationRegistration)?
    /// Who registers the token (`nil`: the app does it itself).
    public let deviceTokens: (any DeviceTokenHandler)?
    private let token = Locked<Data?>(nil)

    /// A set-up of `center` for `manifest`; nothing happens until ``run()``.
    public init(
        center: any UserNotificationCenter, manifest: Manifest, authorization: AuthorizationRequest = .standard,
        remoteNotifications: (any RemoteNotificationRegistration)?, deviceTokens: (any DeviceTokenHandler)? = nil
    ) {
        self.center = center
        self.manifest = manifest
        self.authorization = authorization
        self.remoteNotifications = remoteNotifications
        self.deviceTokens = deviceTokens
    }

    /// Registers the categories, asks for a token, then asks the user (which may wait for the answer).
    public func run() async -> StartReport {
        let registration = await CategoryRegistrar(center: center).register(manifest)
        if let remoteNotifications { await remoteNotifications.registerForRemoteNotifications() }
        var authorized: Bool?
        var failure: String?
        if case .request(let options) = authorization {
            do {
                authorized = try await center.requestAuthorization(options: options)
            } catch {
                failure = "the permission request failed: \(error)"
            }
        }
        return StartReport(
            registration: registration, authorized: authorized, authorizationError: failure,
            registeredForRemoteNotifications: remoteNotifications != nil)
    }

    /// The token APNs gave the app last, if any.
    public var deviceToken: Data? { token.withLock { $0 } }

    /// Keeps `deviceToken` and hands it to ``deviceTokens``; call it from the app delegate's
    /// `application(_:didRegisterForRemoteNotificationsWithDeviceToken:)`. Its errors are the handler's (with the
    /// gateway client, the token is committed to the outbox, which delivers it).
    public func deviceTokenReceived(_ deviceToken: Data) async throws {
        token.withLock { $0 = deviceToken }
        try await deviceTokens?.deviceTokenReceived(deviceToken)
    }
}
