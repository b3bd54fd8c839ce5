internal import COpenSSL
import Foundation
import PushbuttonAPNs

/// A throwaway certificate authority and a server certificate it signed, for `127.0.0.1` and `localhost`,
/// written as PEM files. Clients trust the mock by passing ``caFile`` explicitly; nothing is installed
/// system-wide and verification stays on.
public struct SelfSignedAuthority: Sendable {
    /// The CA certificate a client should trust.
    public let caFile: String
    /// The server certificate.
    public let certificateFile: String
    /// The server's private key (created 0600).
    public let privateKeyFile: String

    /// Creates the files in `directory` (created if needed), replacing earlier ones.
    public init(directory: String, validDays: Int = 30) throws(MockAPNsError) {
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw MockAPNsError(
                .certificateFiles,
                "cannot create the certificate directory '\(directory)': \(error.localizedDescription)")
        }
        caFile = directory + "/ca.pem"
        certificateFile = directory + "/server.pem"
        privateKeyFile = directory + "/server-key.pem"
        guard let caKey = pushbutton_generate_p256_key(), let serverKey = pushbutton_generate_p256_key() else {
            throw MockAPNsError(
                .certificateGeneration, "OpenSSL could not generate a P-256 key: \(OpenSSLErrors.last())")
        }
        defer {
            EVP_PKEY_free(caKey)
            EVP_PKEY_free(serverKey)
        }
        let ca = try Self.certificate(
            commonName: "Pushbutton mock APNs CA", key: caKey, serial: 1, validDays: validDays, issuer: nil,
            extensions: [
                (NID_basic_constraints, "critical,CA:TRUE"), (NID_key_usage, "critical,keyCertSign,cRLSign"),
                (NID_subject_key_identifier, "hash"),
            ])
        defer { X509_free(ca) }
        let server = try Self.certificate(
            commonName: "127.0.0.1", key: serverKey, serial: 2, validDays: validDays, issuer: (ca, caKey),
            extensions: [
                (NID_basic_constraints, "critical,CA:FALSE"), (NID_key_usage, "critical,digitalSignature"),
                (NID_ext_key_usage, "serverAuth"), (NID_subject_alt_name, "IP:127.0.0.1,DNS:localhost"),
                (NID_authority_key_identifier, "keyid"),
            ])
        defer { X509_free(server) }
        try Self.write(caFile, mode: 0o644) { PEM_write_bio_X509($0, ca) }
        try Self.write(certificateFile, mode: 0o644) { PEM_write_bio_X509($0, server) }
        try Self.write(privateKeyFile, mode: 0o600) { PEM_write_bio_PrivateKey($0, serverKey, nil, nil, 0, nil, nil) }
    }

    private static func certificate(
        commonName: String, key: OpaquePointer, serial: Int, validDays: Int,
        issuer: (certificate: OpaquePointer, key: OpaquePointer)?, extensions: [(Int32, String)]
    ) throws(MockAPNsError) -> OpaquePointer {
        guard let certificate = X509_new() else {
            throw MockAPNsError(.certificateGeneration, "OpenSSL could not create a certificate")
        }
        X509_set_version(certificate, 2)
        ASN1_INTEGER_set(X509_get_serialNumber(certificate), serial)
        X509_gmtime_adj(X509_getm_notBefore(certificate), -3600)
        X509_gmtime_adj(X509_getm_notAfter(certificate), validDays * 86_400)
        X509_set_pubkey(certificate, key)
        let name = X509_get_subject_name(certificate)
        X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC, commonName, -1, -1, 0)
        X509_set_issuer_name(certificate, issuer.map { X509_get_subject_name($0.certificate) } ?? name)
        var context = X509V3_CTX()
        X509V3_set_ctx(&context, issuer?.certificate ?? certificate, certificate, nil, nil, 0)
        for (nid, value) in extensions {
            guard let ext = X509V3_EXT_conf_nid(nil, &context, nid, value) else {
                X509_free(certificate)
                throw MockAPNsError(
                    .certificateGeneration, "OpenSSL refused the extension '\(value)': \(OpenSSLErrors.last())")
            }
            X509_add_ext(certificate, ext, -1)
            X509_EXTENSION_free(ext)
        }
        guard X509_sign(certificate, issuer?.key ?? key, EVP_sha256()) > 0 else {
            X509_free(certificate)
            throw MockAPNsError(
                .certificateGeneration, "OpenSSL could not sign the certificate: \(OpenSSLErrors.last())")
        }
        return certificate
    }

    private static func write(_ path: String, mode: mode_t, _ body: (OpaquePointer) -> Int32) throws(MockAPNsError) {
        let pem = Array(OpenSSLErrors.pem(body).utf8)
        guard !pem.isEmpty else {
            throw MockAPNsError(.certificateGeneration, "OpenSSL could not write PEM: \(OpenSSLErrors.last())")
        }
        unlink(path)
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
        guard descriptor >= 0 else {
            throw MockAPNsError(.certificateFiles, "cannot create '\(path)': \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        guard Foundation.write(descriptor, pem, pem.count) == pem.count else {
            throw MockAPNsError(.certificateFiles, "cannot write '\(path)': \(String(cString: strerror(errno)))")
        }
    }
}
