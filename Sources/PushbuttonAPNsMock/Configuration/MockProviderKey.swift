import PushbuttonAPNs

/// A provider key the mock knows: the public half of a `.p8` key, registered under its key id and team.
public struct MockProviderKey: Sendable {
    /// The key id that tokens name in their `kid`.
    public var keyID: String
    /// The team id that tokens must carry in `iss`.
    public var teamID: String
    /// The key that checks tokens' ES256 signatures.
    public var publicKey: P256PublicKey
    /// The bundle ids this key may push to (without push-type suffixes); nil allows any topic.
    public var topics: Set<String>?

    /// Registers a public key under its key id and team.
    public init(keyID: String, teamID: String, publicKey: P256PublicKey, topics: Set<String>? = nil) {
        self.keyID = keyID
        self.teamID = teamID
        self.publicKey = publicKey
        self.topics = topics
    }

    /// Registers the public half of a private key (for tests that mint their own tokens).
    public init(keyID: String, teamID: String, privateKey: P256PrivateKey, topics: Set<String>? = nil)
        throws(KeyError)
    {
        self.init(
            keyID: keyID, teamID: teamID, publicKey: try P256PublicKey(pem: privateKey.publicKeyPEM), topics: topics)
    }
}
