#if canImport(COpenSSL)
    import Foundation
    internal import COpenSSL

    /// A loaded ``ClientCertificate``: the certificate, its private key and the rest of its chain, checked
    /// (the key is there and matches, the certificate is valid now) before a TLS context takes them.
    final class CertificateIdentity {
        let certificate: OpaquePointer
        let key: OpaquePointer
        /// The `STACK_OF(X509)` of the chain's other certificates, or nil.
        private let chain: OpaquePointer?
        private let source: String

        deinit {
            X509_free(certificate)
            EVP_PKEY_free(key)
            pushbutton_sk_x509_free_all(chain)
        }

        private init(certificate: OpaquePointer, key: OpaquePointer, chain: OpaquePointer?, source: String) {
            self.certificate = certificate
            self.key = key
            self.chain = chain
            self.source = source
        }

        /// Loads and checks `credential`; `now` decides expiry; `host`, when it is one of Apple's, the
        /// environment the certificate must be for.
        static func load(_ credential: ClientCertificate, now: Date = Date(), host: String? = nil) throws(APNsError)
            -> CertificateIdentity
        {
            let identity: CertificateIdentity
            switch credential {
            case .pkcs12(let file, let passphraseFile):
                identity = try loadPKCS12(file, passphrase: try passphraseFile.map(ClientCertificate.readPassphrase))
            case .pem(let certificateFile, let keyFile):
                identity = try loadPEM(certificateFile, keyFile)
            }
            try identity.checkValidity(now: now)
            if let host { try identity.checkEnvironment(host: host) }
            guard X509_check_private_key(identity.certificate, identity.key) == 1 else {
                ERR_clear_error()
                throw APNsError(
                    .invalidKey, "\(identity.source): the private key does not belong to the certificate")
            }
            return identity
        }

        /// Puts the certificate, key and chain into a client context.
        func install(in context: OpaquePointer) throws(APNsError) {
            guard SSL_CTX_use_certificate(context, certificate) == 1, SSL_CTX_use_PrivateKey(context, key) == 1 else {
                throw APNsError(.invalidKey, "\(source): OpenSSL refused the certificate: \(OpenSSLErrors.last())")
            }
            for index in 0..<pushbutton_sk_x509_num(chain) {
                guard pushbutton_ssl_ctx_add1_chain_cert(context, pushbutton_sk_x509_value(chain, index)) == 1 else {
                    throw APNsError(.invalidKey, "\(source): OpenSSL refused the chain: \(OpenSSLErrors.last())")
                }
            }
        }

        private func checkValidity(now: Date) throws(APNsError) {
            var time = time_t(now.timeIntervalSince1970)
            if X509_cmp_time(X509_get0_notAfter(certificate), &time) < 0 {
                throw APNsError(
                    .invalidKey,
                    "\(source): the certificate\(subjectText) expired on \(Self.text(X509_get0_notAfter(certificate))): "
                        + "create a new one in your developer account (Certificates, Identifiers & Profiles)")
            }
            if X509_cmp_time(X509_get0_notBefore(certificate), &time) > 0 {
                throw APNsError(
                    .invalidKey,
                    "\(source): the certificate\(subjectText) is not valid before "
                        + "\(Self.text(X509_get0_notBefore(certificate))): check this machine's clock")
            }
        }

        /// A development certificate sent to production, or a production one to the sandbox, is refused by
        /// APNs at every request (403 `BadCertificateEnvironment`): said at start instead. Apple's extensions
        /// name the environments (1.2.840.113635.100.6.3.1 development, …6.3.2 production); a "Sandbox &
        /// Production" certificate names both, and one that names neither is not judged.
        private func checkEnvironment(host: String) throws(APNsError) {
            let development = hasExtension("1.2.840.113635.100.6.3.1")
            let production = hasExtension("1.2.840.113635.100.6.3.2")
            // What the certificate is for, where it goes, how to fix it, and the kind of certificate that would do.
            let mismatch: (made: String, target: String, fix: String, needed: String)
            switch host {
            case APNsEnvironment.production.host where development && !production:
                mismatch = (
                    "development", "production", "send to the sandbox (--sandbox, APNsEnvironment.sandbox)",
                    "production"
                )
            case APNsEnvironment.sandbox.host where production && !development:
                mismatch = (
                    "production", "the sandbox", "send to production (no --sandbox, APNsEnvironment.production)",
                    "development"
                )
            default: return
            }
            throw APNsError(
                .invalidKey,
                "\(source): the certificate\(subjectText) is for APNs' \(mismatch.made) environment, not "
                    + "\(mismatch.target) (\(host)): \(mismatch.fix) or use a \(mismatch.needed) or "
                    + "\"Sandbox & Production\" certificate")
        }

        private func hasExtension(_ oid: String) -> Bool {
            guard let object = OBJ_txt2obj(oid, 1) else { return false }
            defer { ASN1_OBJECT_free(object) }
            return X509_get_ext_by_OBJ(certificate, object, -1) >= 0
        }

        /// ` (UID com.example.app)` or ` (CN …)`, for messages.
        private var subjectText: String {
            let name = X509_get_subject_name(certificate)
            for (nid, label) in [(NID_userId, "UID"), (NID_commonName, "CN")] {
                let index = X509_NAME_get_index_by_NID(name, nid, -1)
                guard index >= 0, let entry = X509_NAME_get_entry(name, index) else { continue }
                var output: UnsafeMutablePointer<UInt8>?
                let length = ASN1_STRING_to_UTF8(&output, X509_NAME_ENTRY_get_data(entry))
                guard length > 0, let output else { continue }
                defer { pushbutton_openssl_free(output) }
                let value = String(decoding: UnsafeBufferPointer(start: output, count: Int(length)), as: UTF8.self)
                return " (\(label) \(value.filter { !$0.isNewline }))"
            }
            return ""
        }

        /// An ASN.1 time as `2026-11-30 13:38:45 UTC`.
        private static func text(_ time: UnsafePointer<ASN1_TIME>?) -> String {
            var parts = tm()
            guard let time, ASN1_TIME_to_tm(time, &parts) == 1 else { return "an unreadable date" }
            return String(
                format: "%04d-%02d-%02d %02d:%02d:%02d UTC", parts.tm_year + 1900, parts.tm_mon + 1, parts.tm_mday,
                parts.tm_hour, parts.tm_min, parts.tm_sec)
        }

        private static func loadPKCS12(_ file: String, passphrase: String?) throws(APNsError) -> CertificateIdentity {
            let source = "'\(file)'"
            guard let data = FileManager.default.contents(atPath: file) else {
                throw APNsError(
                    .invalidKey, "cannot read the PKCS#12 file \(source): check the path and its permissions")
            }
            let bundle = data.withUnsafeBytes { bytes -> OpaquePointer? in
                var pointer = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self)
                return d2i_PKCS12(nil, &pointer, bytes.count)
            }
            guard let bundle else {
                ERR_clear_error()
                throw APNsError(
                    .invalidKey,
                    "\(source) is not a PKCS#12 (.p12) file: export the certificate with its key from Keychain Access "
                        + "as .p12, or give PEM files")
            }
            defer { PKCS12_free(bundle) }
            // A bundle without a pass phrase may use an empty one or none at all.
            let candidates: [String?] = passphrase.map { [$0] } ?? ["", nil]
            guard let phrase = candidates.first(where: { Self.macVerifies(bundle, $0) }) else {
                ERR_clear_error()
                throw APNsError(
                    .invalidKey,
                    passphrase == nil
                        ? "\(source) is protected by a pass phrase: give a file that holds it (never the pass phrase itself)"
                        : "the pass phrase does not open \(source) (its integrity check failed): check the pass phrase file"
                )
            }
            var parsed = parse(bundle, phrase)
            if parsed == nil {
                // Keychain exports before macOS 14 use RC2 and 3DES, which OpenSSL 3 keeps in its legacy provider.
                ERR_clear_error()
                Self.loadLegacyProvider()
                parsed = parse(bundle, phrase)
            }
            guard let (certificate, key, chain) = parsed else {
                throw APNsError(
                    .invalidKey,
                    "OpenSSL cannot decrypt \(source): \(OpenSSLErrors.last()); re-export it with AES "
                        + "(openssl pkcs12 -legacy -in OLD.p12 -nodes | openssl pkcs12 -export -out NEW.p12)")
            }
            guard let key else {
                if let certificate { X509_free(certificate) }
                pushbutton_sk_x509_free_all(chain)
                throw APNsError(
                    .invalidKey,
                    "\(source) holds no private key: export the certificate together with its key (in Keychain "
                        + "Access, select both before exporting)")
            }
            guard let certificate else {
                EVP_PKEY_free(key)
                pushbutton_sk_x509_free_all(chain)
                throw APNsError(.invalidKey, "\(source) holds a key but no certificate")
            }
            return CertificateIdentity(certificate: certificate, key: key, chain: chain, source: source)
        }

        private static func macVerifies(_ bundle: OpaquePointer, _ phrase: String?) -> Bool {
            guard let phrase else { return PKCS12_verify_mac(bundle, nil, 0) == 1 }
            return PKCS12_verify_mac(bundle, phrase, Int32(phrase.utf8.count)) == 1
        }

        private static func parse(_ bundle: OpaquePointer, _ phrase: String?)
            -> (OpaquePointer?, OpaquePointer?, OpaquePointer?)?
        {
            var key: OpaquePointer?
            var certificate: OpaquePointer?
            var chain: OpaquePointer?
            guard PKCS12_parse(bundle, phrase, &key, &certificate, &chain) == 1 else { return nil }
            return (certificate, key, chain)
        }

        private static let legacyProvider: Bool = {
            // The default provider must stay loaded next to the legacy one.
            _ = OSSL_PROVIDER_load(nil, "default")
            return OSSL_PROVIDER_load(nil, "legacy") != nil
        }()

        private static func loadLegacyProvider() { _ = legacyProvider }

        private static func loadPEM(_ certificateFile: String, _ keyFile: String) throws(APNsError)
            -> CertificateIdentity
        {
            let source = "'\(certificateFile)'"
            guard let certificateData = FileManager.default.contents(atPath: certificateFile) else {
                throw APNsError(
                    .invalidKey, "cannot read the certificate \(source): check the path and its permissions")
            }
            guard let keyData = FileManager.default.contents(atPath: keyFile) else {
                throw APNsError(
                    .invalidKey, "cannot read the certificate key '\(keyFile)': check the path and its permissions")
            }
            let certificates = Self.readCertificates(certificateData)
            guard let first = certificates.first else {
                throw APNsError(.invalidKey, "\(source) holds no PEM certificate (-----BEGIN CERTIFICATE-----)")
            }
            let key = keyData.withUnsafeBytes { bytes -> OpaquePointer? in
                guard let bio = BIO_new_mem_buf(bytes.baseAddress, Int32(bytes.count)) else { return nil }
                defer { BIO_free(bio) }
                return pushbutton_pem_read_private_key(bio)
            }
            guard let key else {
                for certificate in certificates { X509_free(certificate) }
                let text = String(decoding: keyData, as: UTF8.self)
                if P256PrivateKey.isEncrypted(text) {
                    throw APNsError(
                        .invalidKey, "cannot use the certificate key '\(keyFile)': \(P256PrivateKey.encryptedMessage)")
                }
                throw APNsError(.invalidKey, "cannot use the certificate key '\(keyFile)': \(OpenSSLErrors.last())")
            }
            var chain: OpaquePointer?
            if certificates.count > 1 {
                chain = OPENSSL_sk_new_null()
                for certificate in certificates.dropFirst() { OPENSSL_sk_push(chain, UnsafeRawPointer(certificate)) }
            }
            return CertificateIdentity(certificate: first, key: key, chain: chain, source: source)
        }

        private static func readCertificates(_ data: Data) -> [OpaquePointer] {
            data.withUnsafeBytes { bytes in
                guard let bio = BIO_new_mem_buf(bytes.baseAddress, Int32(bytes.count)) else { return [] }
                defer { BIO_free(bio) }
                var certificates: [OpaquePointer] = []
                while let certificate = PEM_read_bio_X509(bio, nil, nil, nil) { certificates.append(certificate) }
                ERR_clear_error()  // the end of the input reads as an error
                return certificates
            }
        }
    }
#endif
