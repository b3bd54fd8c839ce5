internal import COpenSSL
import Foundation
import PushbuttonAPNs

extension TLSServerContext {
    /// Makes every connection present a client certificate that `caFile`'s authorities signed, as APNs
    /// requires of a client that authenticates by certificate; the handshake fails without one.
    func requireClientCertificates(caFile: String) throws(MockAPNsError) {
        guard SSL_CTX_load_verify_locations(context, caFile, nil) == 1 else {
            throw MockAPNsError(
                .tlsConfiguration, "cannot load the client certificate authority '\(caFile)': \(OpenSSLErrors.last())")
        }
        pushbutton_ssl_ctx_require_client_certificate(context)
    }
}
