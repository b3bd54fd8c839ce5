/// Registers the app with APNs, which answers with a device token (on iOS,
/// `UIApplication.registerForRemoteNotifications()`, whose token reaches the app delegate's
/// `application(_:didRegisterForRemoteNotificationsWithDeviceToken:)`).
public protocol RemoteNotificationRegistration: Sendable {
    /// Starts the registration; the token arrives later, through the app delegate.
    @MainActor func registerForRemoteNotifications()
}
