import Foundation
import Pushbutton
import PushbuttonAPNs
import PushbuttonSupport

/// Checks `authorization: bearer <JWT>` the way APNs does: an ES256 JWS whose `kid` names a registered
/// key, whose `iss` is that key's team, and whose signature verifies.
///
/// A well-behaved sender reuses one token for up to an hour, so each connection keeps its token's verdict
/// (`ConnectionAuthState`) and a signature is checked about once per connection.
final class ProviderTokenVerifier: Sendable {
    private let keys: Locked<[String: MockProviderKey]>

    /// Why a token was refused: one of APNs' 403 reasons.
    struct Rejection: Error, Sendable {
        var reason: String
    }

    init(keys: [MockProviderKey]) {
        self.keys = Locked(Dictionary(keys.map { ($0.keyID, $0) }, uniquingKeysWith: { _, last in last }))
    }

    func register(_ key: MockProviderKey) {
        keys.withLock { $0[key.keyID] = key }
    }

    /// Verifies the value of an `authorization` header.
    func verify(authorization: String) -> Result<VerifiedProviderToken, Rejection> {
        let invalid = Result<VerifiedProviderToken, Rejection>.failure(Rejection(reason: "InvalidProviderToken"))
        guard authorization.hasPrefix("bearer ") || authorization.hasPrefix("Bearer ") else { return invalid }
        let jwt = authorization.dropFirst("bearer ".count)
        let parts = jwt.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3,
            let headerBytes = Base64URL.decode(String(parts[0])),
            let claimsBytes = Base64URL.decode(String(parts[1])),
            let signature = Base64URL.decode(String(parts[2])),
            let header = try? JSONParser.parse(headerBytes),
            let claims = try? JSONParser.parse(claimsBytes),
            header["alg"]?.stringValue == "ES256",
            let keyID = header["kid"]?.stringValue,
            let teamID = claims["iss"]?.stringValue,
            let issuedAt = claims["iat"]?.integerValue
        else { return invalid }
        guard let key = keys.withLock({ $0[keyID] }) else { return invalid }
        guard key.teamID == teamID else { return .failure(Rejection(reason: "UnrelatedKeyIdInToken")) }
        let signedPart = Array(jwt.utf8.prefix(parts[0].utf8.count + 1 + parts[1].utf8.count))
        guard key.publicKey.isValidSignature(signature, for: signedPart) else { return invalid }
        return .success(
            VerifiedProviderToken(
                keyID: keyID, teamID: teamID, issuedAt: Date(timeIntervalSince1970: TimeInterval(issuedAt)),
                topics: key.topics))
    }
}
