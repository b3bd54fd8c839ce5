import Foundation
import Pushbutton
import PushbuttonSupport
import Testing

@testable import PushbuttonAPNs

/// Runs python3 with `script` and `arguments`; returns (status, stdout).
func python(_ script: String, _ arguments: [String] = []) throws -> (Int32, String) {
    let process = ChildProcess()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", "-c", script] + arguments
    let output = Pipe()
    process.standardOutput = output
    process.standardError = output
    try process.run()
    let text = String(decoding: DescriptorReader.readToEnd(output.fileHandleForReading), as: UTF8.self)
    return (ProcessExit.wait(for: process).status, text)
}

@Suite(.timeLimit(.minutes(5))) struct ProviderTokenTests {
    @Test func pyJWTVerifiesOurTokens() throws {
        let key = try P256PrivateKey.generate()
        let issued = Date()
        let token = try ProviderToken(key: key, keyID: "ABC123DEFG", teamID: "DEF123GHIJ", issuedAt: issued)
        let (status, output) = try python(
            """
            import jwt, sys, json
            token, public = sys.argv[1], sys.argv[2]
            header = jwt.get_unverified_header(token)
            claims = jwt.decode(token, public, algorithms=["ES256"])
            print(json.dumps({"alg": header["alg"], "kid": header["kid"], "iss": claims["iss"], "iat": claims["iat"]}, sort_keys=True))
            """, [token.value, key.publicKeyPEM])
        #expect(status == 0, "\(output)")
        let decoded = try JSONParser.parse(output)
        #expect(
            decoded == [
                "alg": "ES256", "kid": "ABC123DEFG", "iss": "DEF123GHIJ",
                "iat": .integer(Int64(issued.timeIntervalSince1970)),
            ])
        // Our own verifier agrees, and refuses a tampered token.
        let parts = token.value.split(separator: ".").map(String.init)
        let publicKey = try P256PublicKey(pem: key.publicKeyPEM)
        let signature = try #require(Base64URL.decode(parts[2]))
        #expect(publicKey.isValidSignature(signature, for: Array((parts[0] + "." + parts[1]).utf8)))
        #expect(!publicKey.isValidSignature(signature, for: Array((parts[0] + "." + parts[1] + "x").utf8)))
    }

    @Test func readsAP8MadeByAnotherImplementation() throws {
        let (status, pem) = try python(
            """
            from cryptography.hazmat.primitives.asymmetric import ec
            from cryptography.hazmat.primitives import serialization
            key = ec.generate_private_key(ec.SECP256R1())
            print(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()).decode(), end="")
            """)
        #expect(status == 0, "\(pem)")
        let key = try P256PrivateKey(pem: pem)
        let token = try ProviderToken(key: key, keyID: "K", teamID: "T", issuedAt: Date())
        let (verified, output) = try python(
            """
            import jwt, sys
            from cryptography.hazmat.primitives import serialization
            private = serialization.load_pem_private_key(sys.argv[2].encode(), None)
            print(jwt.decode(sys.argv[1], private.public_key(), algorithms=["ES256"])["iss"])
            """, [token.value, pem])
        #expect(verified == 0 && output == "T\n", "\(output)")
    }

    @Test func refusesKeysThatAreNotP256() throws {
        #expect(throws: KeyError.self) { try P256PrivateKey(pem: "not a key") }
        let (_, rsa) = try python(
            """
            from cryptography.hazmat.primitives.asymmetric import rsa
            from cryptography.hazmat.primitives import serialization
            key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
            print(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()).decode(), end="")
            """)
        #expect(throws: KeyError.self) { try P256PrivateKey(pem: rsa) }
    }

    @Test func keysAndTokensNeverPrintThemselves() throws {
        let key = try P256PrivateKey.generate()
        let token = try ProviderToken(
            key: key, keyID: "KID", teamID: "TEAM", issuedAt: Date(timeIntervalSince1970: 1000))
        #expect("\(key)" == "P256PrivateKey(<redacted>)")
        #expect("\(token)" == "ProviderToken(kid: KID, iss: TEAM, iat: 1000, <redacted>)")
        #expect(!"\(token)".contains(token.value))
    }
}

@Suite struct TokenProviderTests {
    final class Clock: Sendable {
        let time = Locked(Date(timeIntervalSince1970: 1_800_000_000))
        func advance(minutes: Double) { time.withLock { $0 = $0.addingTimeInterval(minutes * 60) } }
        var now: @Sendable () -> Date { { [time] in time.withLock { $0 } } }
    }

    @Test func oneTokenIsSharedUntilItIsOldEnoughToRefresh() async throws {
        let clock = Clock()
        let provider = TokenProvider(key: try P256PrivateKey.generate(), keyID: "K", teamID: "T", now: clock.now)
        let first = try await provider.token()
        let tokens = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<50 { group.addTask { try await provider.token().value } }
            return try await group.reduce(into: Set<String>()) { $0.insert($1) }
        }
        let mintedOnce = await provider.mintCount
        #expect(tokens == [first.value] && mintedOnce == 1)
        clock.advance(minutes: 49)
        #expect(try await provider.token() == first)
        clock.advance(minutes: 1)
        #expect(try await provider.token() != first)
        #expect(await provider.mintCount == 2)
    }

    @Test func anExpiredTokenAnswerRefreshesOnlyPastTwentyMinutes() async throws {
        let clock = Clock()
        let provider = TokenProvider(key: try P256PrivateKey.generate(), keyID: "K", teamID: "T", now: clock.now)
        let first = try await provider.token()
        clock.advance(minutes: 5)
        #expect(try await provider.tokenAfterExpiry(of: first) == nil)
        clock.advance(minutes: 15)
        let second = try #require(try await provider.tokenAfterExpiry(of: first))
        #expect(second != first)
        // A second request rejected with the old token gets the new one, not a third.
        #expect(try await provider.tokenAfterExpiry(of: first) == second)
        #expect(await provider.mintCount == 2)
    }

    @Test func theRefreshIntervalStaysWithinAPNsLimits() throws {
        let key = try P256PrivateKey.generate()
        #expect(TokenProvider(key: key, keyID: "K", teamID: "T", refreshInterval: 60).refreshInterval == 20 * 60)
        #expect(TokenProvider(key: key, keyID: "K", teamID: "T", refreshInterval: 7200).refreshInterval == 59 * 60)
    }
}
