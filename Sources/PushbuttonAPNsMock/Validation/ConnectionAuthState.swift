import Foundation

/// What one connection has shown of its provider tokens: APNs ties a connection to one team and
/// limits how often its token changes.
struct ConnectionAuthState: Sendable {
    /// The `authorization` value last accepted on this connection.
    var token: String?
    var teamID: String?
    /// When the current token was first used on this connection.
    var tokenSince: Date?
    /// When the current token was issued (its `iat`).
    var tokenIssuedAt: Date?
    /// The current token's verdict: a connection reuses one token for many requests, so its signature is
    /// checked once, not per request.
    var verified: VerifiedProviderToken?
    /// Whether a request with a valid token has arrived (APNs then raises the stream limit).
    var hasValidToken = false
    /// The topics of the client certificate the connection presented (when the mock requires one).
    var certificateTopics: Set<String>?
    /// The environments that certificate is for (empty: it names none).
    var certificateEnvironments: Set<MockAPNsConfiguration.CertificateEnvironment> = []
}
