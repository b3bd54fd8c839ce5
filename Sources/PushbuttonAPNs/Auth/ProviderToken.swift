import Foundation
import Pushbutton

/// An APNs provider authentication token: a JWT signed with ES256.
///
/// Header `{"alg":"ES256","kid":KEY_ID}`, claims `{"iss":TEAM_ID,"iat":SECONDS}`, signed with the team's
/// `.p8` key (raw r‖s, base64url). `description` shows the key id, team and age, never the token itself.
public struct ProviderToken: Sendable, Hashable, CustomStringConvertible {
    /// The fields, behind one reference: every request of a bulk send carries a copy of the token (read from the
    /// provider, kept by its delivery, passed to the transport), and a copy then costs one retain, not one per
    /// string.
    private final class Storage: Sendable {
        let value: String
        let authorization: String
        let keyID: String
        let teamID: String
        let issuedAt: Date

        init(value: String, keyID: String, teamID: String, issuedAt: Date) {
            self.value = value
            authorization = "bearer " + value
            self.keyID = keyID
            self.teamID = teamID
            self.issuedAt = issuedAt
        }
    }

    private let storage: Storage

    /// The compact JWS, for the `authorization: bearer` header.
    public var value: String { storage.value }
    /// The `authorization` header's value, `bearer <JWS>`, built once rather than per request.
    public var authorization: String { storage.authorization }
    /// The `.p8` key's id (the JWT header's `kid`).
    public var keyID: String { storage.keyID }
    /// The Apple Developer team id (the `iss` claim).
    public var teamID: String { storage.teamID }
    /// When it was issued (`iat`).
    public var issuedAt: Date { storage.issuedAt }

    /// Signs a token for `teamID` with `key`, issued at `issuedAt` (whole seconds).
    public init(key: P256PrivateKey, keyID: String, teamID: String, issuedAt: Date) throws(KeyError) {
        let seconds = Int64(issuedAt.timeIntervalSince1970.rounded(.down))
        let header = JSONWriter.compact(["alg": "ES256", "kid": .string(keyID)])
        let claims = JSONWriter.compact(["iss": .string(teamID), "iat": .integer(seconds)])
        let signingInput = Base64URL.encode(header) + "." + Base64URL.encode(claims)
        let signature = try key.sign(Array(signingInput.utf8))
        storage = Storage(
            value: signingInput + "." + Base64URL.encode(signature), keyID: keyID, teamID: teamID,
            issuedAt: Date(timeIntervalSince1970: Double(seconds)))
    }

    /// Equal tokens have equal fields (the same storage, or copies of it).
    public static func == (lhs: ProviderToken, rhs: ProviderToken) -> Bool {
        lhs.storage === rhs.storage
            || (lhs.value == rhs.value && lhs.keyID == rhs.keyID && lhs.teamID == rhs.teamID
                && lhs.issuedAt == rhs.issuedAt)
    }

    /// Hashes the fields ``==`` compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(value)
        hasher.combine(keyID)
        hasher.combine(teamID)
        hasher.combine(issuedAt)
    }

    /// The key id, team and issue time, never the signed token: `ProviderToken(kid: …, iss: …, iat: …, <redacted>)`.
    public var description: String {
        "ProviderToken(kid: \(keyID), iss: \(teamID), iat: \(Int64(issuedAt.timeIntervalSince1970)), <redacted>)"
    }
}
