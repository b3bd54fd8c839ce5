/// What ``NotificationStartup/run()`` did.
public struct StartReport: Sendable, Hashable {
    /// The registration of the manifest's categories.
    public var registration: RegistrationReport
    /// The user's answer to the permission request; `nil` when none was made (``AuthorizationRequest/none``) or it
    /// failed (see ``authorizationError``).
    public var authorized: Bool?
    /// Why the permission request failed, when it did.
    public var authorizationError: String?
    /// Whether the app asked APNs for a device token.
    public var registeredForRemoteNotifications: Bool

    /// A report of what was done.
    public init(
        registration: RegistrationReport, authorized: Bool?, authorizationError: String?,
        registeredForRemoteNotifications: Bool
    ) {
        self.registration = registration
        self.authorized = authorized
        self.authorizationError = authorizationError
        self.registeredForRemoteNotifications = registeredForRemoteNotifications
    }
}
