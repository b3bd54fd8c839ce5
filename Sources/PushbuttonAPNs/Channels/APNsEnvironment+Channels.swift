extension APNsEnvironment {
    /// Channel management for development apps: its own host and port (Apple, "Sending channel management
    /// requests to APNs").
    public static let channelManagementSandbox = APNsEnvironment(
        host: "api-manage-broadcast.sandbox.push.apple.com", port: 2195)
    /// Channel management for production apps.
    public static let channelManagementProduction = APNsEnvironment(
        host: "api-manage-broadcast.push.apple.com", port: 2196)

    /// Where channels of apps sending to `self` are managed: ``channelManagementSandbox`` for
    /// ``sandbox``, ``channelManagementProduction`` for ``production`` (on either port), and `self` for
    /// anything else (a local stand-in such as the mock, which serves both APIs on one port).
    public var channelManagement: APNsEnvironment {
        switch host {
        case APNsEnvironment.sandbox.host: return .channelManagementSandbox
        case APNsEnvironment.production.host: return .channelManagementProduction
        default: return self
        }
    }
}
