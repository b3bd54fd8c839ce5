#if canImport(COpenSSL)
    import Foundation
    internal import COpenSSL

    /// The sender's OpenSSL context: TLS 1.2 or later, ALPN `h2`, peer verification always on (against a
    /// given CA file, or the system's trust store), and an optional client certificate.
    final class TLSClientContext: @unchecked Sendable {
        // `@unchecked Sendable`: configured once in `init`, then only used to create sessions.
        private let context: OpaquePointer

        /// `host` is the server's, for the client certificate's environment check.
        init(caFile: String?, clientCertificate: ClientCertificate?, host: String? = nil) throws(APNsError) {
            guard let context = SSL_CTX_new(TLS_client_method()) else {
                throw APNsError(.transport, "OpenSSL could not create a TLS context: \(OpenSSLErrors.last())")
            }
            self.context = context
            _ = pushbutton_ssl_ctx_set_min_tls12(context)
            SSL_CTX_set_verify(context, SSL_VERIFY_PEER, nil)
            if let caFile {
                guard SSL_CTX_load_verify_locations(context, caFile, nil) == 1 else {
                    throw APNsError(.transport, "cannot load the CA file '\(caFile)': \(OpenSSLErrors.last())")
                }
            } else {
                SSL_CTX_set_default_verify_paths(context)
            }
            let alpn: [UInt8] = [2, 0x68, 0x32]  // "h2"
            SSL_CTX_set_alpn_protos(context, alpn, UInt32(alpn.count))
            pushbutton_ssl_ctx_never_prompt(context)
            if let clientCertificate {
                // Loaded and checked first (pass phrase, expiry, key present and matching, environment), so a bad one is a
                // clear error at start, not a failed handshake later.
                try CertificateIdentity.load(clientCertificate, host: host).install(in: context)
            }
        }

        deinit { SSL_CTX_free(context) }

        /// A client session on `socket` that checks the server's certificate names `host`.
        func session(socket: Int32, host: String) -> OpaquePointer? {
            guard let ssl = SSL_new(context) else { return nil }
            SSL_set_fd(ssl, socket)
            SSL_set_connect_state(ssl)
            pushbutton_ssl_set_partial_write(ssl)
            // One read(2) takes in whatever records have arrived, not a header and a body per record: the
            // loop reads until the socket is drained, so nothing waits in OpenSSL's buffer unseen.
            SSL_set_read_ahead(ssl, 1)
            var address = in6_addr()
            let isAddress = inet_pton(AF_INET, host, &address) == 1 || inet_pton(AF_INET6, host, &address) == 1
            if isAddress {
                X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(ssl), host)
            } else {
                _ = pushbutton_ssl_set_server_name(ssl, host)
                SSL_set1_host(ssl, host)
            }
            return ssl
        }
    }
#endif
