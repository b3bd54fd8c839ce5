import Foundation

#if canImport(CryptoKit)
    import CryptoKit
#else
    internal import COpenSSL
#endif

/// A P-256 private key, as Apple's `.p8` provider keys are, that signs ES256.
///
/// `description` never shows the key. On Linux the key lives in OpenSSL's libcrypto (`@unchecked Sendable`:
/// an `EVP_PKEY` is not modified after loading, and each signature uses its own context); on Apple
/// platforms in CryptoKit.
public final class P256PrivateKey: @unchecked Sendable, CustomStringConvertible {
    #if canImport(CryptoKit)
        private let key: P256.Signing.PrivateKey
    #else
        private let key: OpaquePointer
    #endif

    /// Reads a PEM private key (the contents of `AuthKey_XXXXXXXXXX.p8`).
    public init(pem: String) throws(KeyError) {
        #if canImport(CryptoKit)
            do { key = try P256.Signing.PrivateKey(pemRepresentation: pem) } catch {
                throw KeyError(.notPEM, "the key is not a P-256 private key in PEM form (\(error))")
            }
        #else
            let loaded: OpaquePointer? = pem.utf8CString.withUnsafeBufferPointer { buffer in
                guard let bio = BIO_new_mem_buf(buffer.baseAddress, Int32(buffer.count - 1)) else { return nil }
                defer { BIO_free(bio) }
                return pushbutton_pem_read_private_key(bio)  // never prompts for a pass phrase
            }
            guard let loaded else {
                if Self.isEncrypted(pem) { throw KeyError(.encrypted, Self.encryptedMessage) }
                throw KeyError(.notPEM, "the key is not a private key in PEM form (\(OpenSSLErrors.last()))")
            }
            guard EVP_PKEY_get_base_id(loaded) == EVP_PKEY_EC, EVP_PKEY_get_bits(loaded) == 256 else {
                EVP_PKEY_free(loaded)
                throw KeyError(.wrongKeyType, "the key is not a P-256 elliptic-curve key, as APNs provider keys are")
            }
            key = loaded
        #endif
    }

    /// Whether PEM text holds an encrypted private key (PKCS#8 or the traditional OpenSSL form), which
    /// Pushbutton refuses instead of letting OpenSSL prompt for a pass phrase.
    package static func isEncrypted(_ pem: String) -> Bool {
        pem.contains("-----BEGIN ENCRYPTED PRIVATE KEY-----") || pem.contains("Proc-Type: 4,ENCRYPTED")
    }

    package static let encryptedMessage =
        "the key is encrypted; Pushbutton never prompts for a pass phrase: decrypt it first "
        + "(openssl pkey -in KEY -out PLAIN.p8) and keep the result private (mode 0600)"

    /// Reads a `.p8` file.
    public convenience init(contentsOf path: String) throws(KeyError) {
        let pem: String
        do { pem = try String(contentsOfFile: path, encoding: .utf8) } catch {
            throw KeyError(.unreadableFile, "cannot read the key file '\(path)': \(error.localizedDescription)")
        }
        try self.init(pem: pem)
    }

    #if canImport(CryptoKit)
        private init(key: P256.Signing.PrivateKey) { self.key = key }

        /// A new random key (for tests and the demo: a throwaway provider key).
        public static func generate() throws(KeyError) -> P256PrivateKey {
            P256PrivateKey(key: P256.Signing.PrivateKey())
        }

        /// The key in PKCS#8 PEM form, as Apple's `.p8` files hold it.
        public var pemRepresentation: String { key.pemRepresentation }

        /// The public half in PEM form.
        public var publicKeyPEM: String { key.publicKey.pemRepresentation }

        /// An ES256 signature of `message`: the raw 64-byte r‖s that JWS uses.
        public func sign(_ message: [UInt8]) throws(KeyError) -> [UInt8] {
            do { return Array(try key.signature(for: message).rawRepresentation) } catch {
                throw KeyError(.signingFailed, "signing failed: \(error)")
            }
        }
    #else
        private init(key: OpaquePointer) { self.key = key }

        deinit { EVP_PKEY_free(key) }

        /// A new random key (for tests and the demo: a throwaway provider key).
        public static func generate() throws(KeyError) -> P256PrivateKey {
            guard let context = EVP_PKEY_CTX_new_id(EVP_PKEY_EC, nil) else {
                throw KeyError(.generationFailed, "key generation: \(OpenSSLErrors.last())")
            }
            defer { EVP_PKEY_CTX_free(context) }
            var key: OpaquePointer?
            guard EVP_PKEY_keygen_init(context) == 1,
                EVP_PKEY_CTX_set_ec_paramgen_curve_nid(context, NID_X9_62_prime256v1) == 1,
                EVP_PKEY_keygen(context, &key) == 1, let key
            else { throw KeyError(.generationFailed, "key generation: \(OpenSSLErrors.last())") }
            return P256PrivateKey(key: key)
        }

        /// The key in PKCS#8 PEM form, as Apple's `.p8` files hold it.
        public var pemRepresentation: String {
            OpenSSLErrors.pem { bio in PEM_write_bio_PrivateKey(bio, key, nil, nil, 0, nil, nil) }
        }

        /// The public half in PEM form.
        public var publicKeyPEM: String { OpenSSLErrors.pem { bio in PEM_write_bio_PUBKEY(bio, key) } }

        /// An ES256 signature of `message`: the raw 64-byte r‖s that JWS uses (OpenSSL gives DER).
        public func sign(_ message: [UInt8]) throws(KeyError) -> [UInt8] {
            guard let context = EVP_MD_CTX_new() else { throw KeyError(.signingFailed, "signing: out of memory") }
            defer { EVP_MD_CTX_free(context) }
            guard EVP_DigestSignInit(context, nil, EVP_sha256(), nil, key) == 1 else {
                throw KeyError(.signingFailed, "signing: \(OpenSSLErrors.last())")
            }
            var length = 0
            guard EVP_DigestSign(context, nil, &length, message, message.count) == 1 else {
                throw KeyError(.signingFailed, "signing: \(OpenSSLErrors.last())")
            }
            var der = [UInt8](repeating: 0, count: length)
            guard EVP_DigestSign(context, &der, &length, message, message.count) == 1 else {
                throw KeyError(.signingFailed, "signing: \(OpenSSLErrors.last())")
            }
            return try Self.raw(fromDER: Array(der.prefix(length)))
        }

        /// DER `ECDSA-Sig-Value` → 32-byte r ‖ 32-byte s.
        private static func raw(fromDER der: [UInt8]) throws(KeyError) -> [UInt8] {
            let signature: OpaquePointer? = der.withUnsafeBufferPointer { buffer in
                var pointer = buffer.baseAddress
                return d2i_ECDSA_SIG(nil, &pointer, buffer.count)
            }
            guard let signature else { throw KeyError(.signingFailed, "signing: unreadable signature") }
            defer { ECDSA_SIG_free(signature) }
            var r: OpaquePointer?
            var s: OpaquePointer?
            ECDSA_SIG_get0(signature, &r, &s)
            var raw = [UInt8](repeating: 0, count: 64)
            let written =
                raw[..<32].withUnsafeMutableBufferPointer { BN_bn2binpad(r, $0.baseAddress, 32) } == 32
                && raw[32...].withUnsafeMutableBufferPointer { BN_bn2binpad(s, $0.baseAddress, 32) } == 32
            guard written else { throw KeyError(.signingFailed, "signing: signature values out of range") }
            return raw
        }
    #endif

    /// Never the key: `P256PrivateKey(<redacted>)`, so logs and interpolations cannot leak it.
    public var description: String { "P256PrivateKey(<redacted>)" }
}
