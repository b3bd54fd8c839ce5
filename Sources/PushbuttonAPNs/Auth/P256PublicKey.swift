import Foundation

#if canImport(CryptoKit)
    import CryptoKit
#else
    internal import COpenSSL
#endif

/// A P-256 public key that checks ES256 signatures (the mock APNs server verifies provider tokens with it).
public final class P256PublicKey: @unchecked Sendable {
    #if canImport(CryptoKit)
        private let key: P256.Signing.PublicKey

        /// Loads a public key from PEM (`-----BEGIN PUBLIC KEY-----`).
        ///
        /// - Throws: ``KeyError`` when the text is not a P-256 public key in PEM form.
        public init(pem: String) throws(KeyError) {
            do { key = try P256.Signing.PublicKey(pemRepresentation: pem) } catch {
                throw KeyError(.notPEM, "not a P-256 public key in PEM form (\(error))")
            }
        }

        /// Whether `signature` (raw r‖s) signs `message`.
        public func isValidSignature(_ signature: [UInt8], for message: [UInt8]) -> Bool {
            guard let parsed = try? P256.Signing.ECDSASignature(rawRepresentation: signature) else { return false }
            return key.isValidSignature(parsed, for: message)
        }
    #else
        // `@unchecked Sendable`: the EVP_PKEY is not modified after loading; each check uses its own context.
        private let key: OpaquePointer

        /// Loads a public key from PEM (`-----BEGIN PUBLIC KEY-----`).
        ///
        /// - Throws: ``KeyError`` when the text is not a P-256 public key in PEM form.
        public init(pem: String) throws(KeyError) {
            let loaded: OpaquePointer? = pem.utf8CString.withUnsafeBufferPointer { buffer in
                guard let bio = BIO_new_mem_buf(buffer.baseAddress, Int32(buffer.count - 1)) else { return nil }
                defer { BIO_free(bio) }
                return PEM_read_bio_PUBKEY(bio, nil, nil, nil)
            }
            guard let loaded else { throw KeyError(.notPEM, "not a public key in PEM form (\(OpenSSLErrors.last()))") }
            guard EVP_PKEY_get_base_id(loaded) == EVP_PKEY_EC, EVP_PKEY_get_bits(loaded) == 256 else {
                EVP_PKEY_free(loaded)
                throw KeyError(.wrongKeyType, "not a P-256 elliptic-curve key")
            }
            key = loaded
        }

        deinit { EVP_PKEY_free(key) }

        /// Whether `signature` (raw r‖s) signs `message`.
        public func isValidSignature(_ signature: [UInt8], for message: [UInt8]) -> Bool {
            guard signature.count == 64, let der = Self.der(fromRaw: signature) else { return false }
            guard let context = EVP_MD_CTX_new() else { return false }
            defer { EVP_MD_CTX_free(context) }
            guard EVP_DigestVerifyInit(context, nil, EVP_sha256(), nil, key) == 1 else { return false }
            return EVP_DigestVerify(context, der, der.count, message, message.count) == 1
        }

        private static func der(fromRaw raw: [UInt8]) -> [UInt8]? {
            guard let signature = ECDSA_SIG_new() else { return nil }
            defer { ECDSA_SIG_free(signature) }
            let r = raw[..<32].withUnsafeBufferPointer { BN_bin2bn($0.baseAddress, 32, nil) }
            let s = raw[32...].withUnsafeBufferPointer { BN_bin2bn($0.baseAddress, 32, nil) }
            guard ECDSA_SIG_set0(signature, r, s) == 1 else { return nil }
            var output: UnsafeMutablePointer<UInt8>?
            let length = i2d_ECDSA_SIG(signature, &output)
            guard length > 0, let output else { return nil }
            defer { pushbutton_openssl_free(output) }
            return Array(UnsafeBufferPointer(start: output, count: Int(length)))
        }
    #endif
}
