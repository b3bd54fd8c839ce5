import Foundation

/// A TLS client certificate for certificate-based authentication with APNs, as people have them: PEM files
/// (certificate and key), or a PKCS#12 bundle (`.p12`, as Keychain Access exports one) whose pass phrase is
/// read from a file, never from the command line or the code.
///
/// ```swift
/// let certificate = ClientCertificate.pkcs12(file: "push.p12", passphraseFile: "push.p12.pass")
/// let transport = try NGHTTP2Transport(.init(environment: .production, certificate: certificate))
/// let client = APNsClient(transport: transport, tokens: nil)
/// ```
///
/// The transport loads it when it starts and refuses it with a message that says what is wrong: a wrong
/// pass phrase, a certificate that expired (or is not valid yet), a bundle without a private key, a key
/// that does not match. APNs ties one certificate to one app (its topics), so each certificate gets
/// connections of its own (``APNsClients`` keeps one transport per certificate).
public enum ClientCertificate: Sendable, Hashable, CustomStringConvertible {
    /// A certificate (chain) and its unencrypted private key, PEM files.
    case pem(certificate: String, key: String)
    /// A PKCS#12 file; `passphraseFile` holds its pass phrase (the first line; a final newline is not part of
    /// it), nil for a bundle without one.
    case pkcs12(file: String, passphraseFile: String?)

    /// The files, never the pass phrase.
    public var description: String {
        switch self {
        case .pem(let certificate, let key): return "certificate '\(certificate)' with key '\(key)'"
        case .pkcs12(let file, let passphraseFile):
            return "PKCS#12 '\(file)'" + (passphraseFile.map { " (pass phrase in '\($0)')" } ?? "")
        }
    }

    /// The pass phrase from `file`: its first line, without the line break.
    static func readPassphrase(_ file: String) throws(APNsError) -> String {
        guard let data = FileManager.default.contents(atPath: file) else {
            throw APNsError(
                .invalidKey, "cannot read the pass phrase file '\(file)': check the path and its permissions")
        }
        let text = String(decoding: data, as: UTF8.self)
        let line = text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        return String(line.hasSuffix("\r") ? line.dropLast() : line)
    }
}
