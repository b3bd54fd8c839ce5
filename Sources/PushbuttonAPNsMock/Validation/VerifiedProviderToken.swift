import Foundation

/// A provider token whose signature checked out against a registered key.
struct VerifiedProviderToken: Sendable {
    var keyID: String
    var teamID: String
    var issuedAt: Date
    var topics: Set<String>?
}
