import Foundation
import Pushbutton

/// An APNs provider authentication token: a JWT signed with ES256.
///
/// Header `{"alg":"ES256","kid":KEY_ID}`, claims `{"iss":TEAM_ID,"iat":SECONDS}`, signed with the team's
/// `.p8` key (raw r‖s, base64url). `description` shows the key id, team and age, never the token itself.
public struct ProviderToken: Sendable, Hashable, CustomStringConvertible {
    /// The compact JWS, for the `authorization: bearer` header.
    public let value: String
    /// The `authorization` header's value, `bearer <JWS>`, built once rather than per request.
    public let authorization: String
    public let keyID: String
    public let teamID: String
    /// When it was issued (`iat`).
    public let issuedAt: Date

    /// Signs a token for `teamID` with `key`, issued at `issuedAt` (whole seconds).
    public init(key: P256PrivateKey, keyID: String, teamID: String, issuedAt: Date) throws(KeyError) {
        let seconds = Int64(issuedAt.timeIntervalSince1970.rounded(.down))
        let header = JSONWriter.compact(["alg": "ES256", "kid": .string(keyID)])
        let claims = JSONWriter.compact(["iss": .string(teamID), "iat": .integer(seconds)])
        let signingInput = Base64URL.encode(header) + "." + Base64URL.encode(claims)
        let signature = try key.sign(Array(signingInput.utf8))
        value = signingInput + "." + Base64URL.encode(signature)
        authorization = "bearer " + value
        self.keyID = keyID
        self.teamID = teamID
        self.issuedAt = Date(timeIntervalSince1970: Double(seconds))
    }

    public var description: String {
        "ProviderToken(kid: \(keyID), iss: \(teamID), iat: \(Int64(issuedAt.timeIntervalSince1970)), <redacted>)"
    }
}
