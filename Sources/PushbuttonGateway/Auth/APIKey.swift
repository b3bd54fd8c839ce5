import Foundation

/// API keys: secret keys (`pb_sk_…`) for a backend, publishable keys (`pb_pk_…`) that an app may embed to
/// register its device. The configuration holds only their SHA-256 digests; a presented key is hashed and
/// compared in constant time against every configured digest.
public enum APIKey {
    /// What a key may do, and for which app.
    public enum Kind: String, Sendable, Hashable {
        case secret
        case publishable
    }

    /// `sha256:` and the key's digest in hex: the form the configuration takes.
    public static func digestText(of key: String) -> String { "sha256:" + Digest.hex(Digest.sha256(key.utf8)) }

    /// A new random key of `kind` (32 random bytes, hex).
    public static func generate(_ kind: Kind) -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
        return (kind == .secret ? "pb_sk_" : "pb_pk_") + Digest.hex(bytes)
    }

    static func parseDigest(_ text: String) -> [UInt8]? {
        guard text.hasPrefix("sha256:") else { return nil }
        let hex = Array(text.utf8.dropFirst(7))
        guard hex.count == 64 else { return nil }
        var bytes: [UInt8] = []
        var index = 0
        while index < 64 {
            guard let high = nibble(hex[index]), let low = nibble(hex[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
            index += 2
        }
        return bytes
    }

    private static func nibble(_ digit: UInt8) -> UInt8? {
        switch digit {
        case 0x30...0x39: digit - 0x30
        case 0x61...0x66: digit - 0x61 + 10
        case 0x41...0x46: digit - 0x41 + 10
        default: nil
        }
    }
}

/// Who a presented key belongs to.
struct Credential: Sendable, Hashable {
    var app: String
    var kind: APIKey.Kind
}

/// Every app's key digests; finds the owner of a presented key without an early exit on a match.
struct KeyRing: Sendable {
    private let entries: [(digest: [UInt8], credential: Credential)]

    init(_ apps: [AppConfiguration]) {
        entries =
            apps.flatMap { app in
                app.secretKeyDigests.map { ($0, Credential(app: app.id, kind: .secret)) }
                    + app.publishableKeyDigests.map { ($0, Credential(app: app.id, kind: .publishable)) }
            }
    }

    /// The credential of `key`, or `nil` when no app has it.
    func credential(for key: String) -> Credential? {
        let digest = Digest.sha256(key.utf8)
        var found: Credential?
        for entry in entries where Digest.constantTimeEqual(entry.digest, digest) && found == nil {
            found = entry.credential
        }
        return found
    }
}
