/// One app an ``APNsClients`` sends for: its topic (bundle id), the APNs environment, and how it
/// authenticates there.
public struct APNsApp: Sendable {
    /// How an app authenticates with APNs.
    public enum Credentials: Sendable {
        /// A provider token signed with a team's `.p8` key.
        case token(key: P256PrivateKey, keyID: String, teamID: String)
        /// A TLS client certificate made for the app.
        case certificate(ClientCertificate)
    }

    /// The bundle id; notifications whose topic is it, or it with a push type's suffix (`.voip`,
    /// `.push-type.liveactivity`…), go to this app.
    public var topic: String
    /// Where its notifications go.
    public var environment: APNsEnvironment
    /// How it authenticates there.
    public var credentials: Credentials

    /// An app for `topic` in `environment`, authenticated with `credentials`.
    public init(topic: String, environment: APNsEnvironment, credentials: Credentials) {
        self.topic = topic
        self.environment = environment
        self.credentials = credentials
    }
}
