// The mock asks for client certificates signed by a CA of yours; the client authenticates with its .p12.
import PushbuttonAPNs
import PushbuttonAPNsMock

// snippet.hide
// NGHTTP2Transport is the sender's transport on Linux only (as in PushbuttonAPNs).
#if canImport(CNGHTTP2) && canImport(COpenSSL)
    func mockWithCertificates(directory: String) async throws -> APNsClient {
        // snippet.show
        var configuration = MockAPNsConfiguration(security: .selfSigned(directory: directory))
        configuration.clientCertificateAuthority = "client-ca.pem"
        let mock = try await MockAPNs.start(configuration)
        let client = APNsClient(
            transport: try NGHTTP2Transport(
                .init(
                    environment: mock.environment, certificate: .pkcs12(file: "app.p12", passphraseFile: "app.pass"))),
            tokens: nil)
        // snippet.hide
        return client
    }
#endif
