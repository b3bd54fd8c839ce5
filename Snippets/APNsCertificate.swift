// Certificate authentication with a PKCS#12 bundle whose pass phrase is in a file.
import PushbuttonAPNs

// snippet.hide
// NGHTTP2Transport is the sender's transport on Linux only (as in PushbuttonAPNs).
#if canImport(CNGHTTP2) && canImport(COpenSSL)
    func certificateClient() throws -> APNsClient {
        // snippet.show
        let certificate = ClientCertificate.pkcs12(file: "push.p12", passphraseFile: "push.p12.pass")
        let transport = try NGHTTP2Transport(.init(environment: .production, certificate: certificate))
        let client = APNsClient(transport: transport, tokens: nil)
        // snippet.hide
        return client
    }
#endif
