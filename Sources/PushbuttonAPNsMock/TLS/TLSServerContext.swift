internal import COpenSSL
import Foundation
import PushbuttonAPNs

/// An OpenSSL server context: the certificate chain and key, TLS 1.2 or later, and ALPN that selects `h2`
/// when the client offers it.
final class TLSServerContext: @unchecked Sendable {
    // `@unchecked Sendable`: the SSL_CTX is configured once in `init` and only read afterwards, which
    // OpenSSL allows from several threads.
    let context: OpaquePointer

    init(certificateChainFile: String, privateKeyFile: String) throws(MockAPNsError) {
        guard let context = SSL_CTX_new(TLS_server_method()) else {
            throw MockAPNsError(.tlsConfiguration, "OpenSSL could not create a TLS context: \(OpenSSLErrors.last())")
        }
        self.context = context
        guard pushbutton_ssl_ctx_set_min_tls12(context) == 1 else {
            throw MockAPNsError(
                .tlsConfiguration, "OpenSSL refused TLS 1.2 as the minimum version: \(OpenSSLErrors.last())")
        }
        guard SSL_CTX_use_certificate_chain_file(context, certificateChainFile) == 1 else {
            throw MockAPNsError(
                .tlsConfiguration, "cannot use '\(certificateChainFile)' as the certificate: \(OpenSSLErrors.last())")
        }
        pushbutton_ssl_ctx_never_prompt(context)
        guard SSL_CTX_use_PrivateKey_file(context, privateKeyFile, SSL_FILETYPE_PEM) == 1 else {
            let text = (try? String(contentsOfFile: privateKeyFile, encoding: .utf8)) ?? ""
            if P256PrivateKey.isEncrypted(text) {
                throw MockAPNsError(
                    .tlsConfiguration,
                    "cannot use '\(privateKeyFile)' as the private key: \(P256PrivateKey.encryptedMessage)")
            }
            throw MockAPNsError(
                .tlsConfiguration, "cannot use '\(privateKeyFile)' as the private key: \(OpenSSLErrors.last())")
        }
        guard SSL_CTX_check_private_key(context) == 1 else {
            throw MockAPNsError(
                .tlsConfiguration,
                "the key '\(privateKeyFile)' does not match the certificate '\(certificateChainFile)'")
        }
        SSL_CTX_set_alpn_select_cb(context, Self.selectALPN, nil)
    }

    deinit { SSL_CTX_free(context) }

    /// A new TLS session for an accepted socket.
    func session(for socket: Int32) -> OpaquePointer? {
        guard let ssl = SSL_new(context) else { return nil }
        SSL_set_fd(ssl, socket)
        SSL_set_accept_state(ssl)
        pushbutton_ssl_set_partial_write(ssl)
        SSL_set_read_ahead(ssl, 1)  // as the client does: one read(2) for the records that arrived
        return ssl
    }

    /// Picks `h2` from the client's ALPN list, or no protocol.
    private static let selectALPN:
        @convention(c) (
            OpaquePointer?, UnsafeMutablePointer<UnsafePointer<UInt8>?>?, UnsafeMutablePointer<UInt8>?,
            UnsafePointer<UInt8>?, UInt32, UnsafeMutableRawPointer?
        ) -> Int32 = { _, selected, selectedLength, offered, offeredLength, _ in
            guard let offered, let selected, let selectedLength else { return SSL_TLSEXT_ERR_NOACK }
            var index = 0
            while index < Int(offeredLength) {
                let length = Int(offered[index])
                if length == 2 && index + 2 < Int(offeredLength) && offered[index + 1] == 0x68
                    && offered[index + 2] == 0x32
                {
                    selected.pointee = offered + index + 1
                    selectedLength.pointee = 2
                    return SSL_TLSEXT_ERR_OK
                }
                index += 1 + length
            }
            return SSL_TLSEXT_ERR_NOACK
        }
}
