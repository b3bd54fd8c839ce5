// A local APNs in a test: the client trusts the mock's CA and signs with a key the mock knows.
import Pushbutton
import PushbuttonAPNs
import PushbuttonAPNsMock

// snippet.hide
// NGHTTP2Transport is the sender's transport on Linux only (as in PushbuttonAPNs).
#if canImport(CNGHTTP2) && canImport(COpenSSL)
    func expect(_ condition: Bool) { precondition(condition) }

    func mockInATest(temporaryDirectory: String, notification: APNsNotification) async throws {
        // snippet.show
        let key = try P256PrivateKey.generate()
        let mock = try await MockAPNs.start(
            MockAPNsConfiguration(
                security: .selfSigned(directory: temporaryDirectory),  // writes ca.pem for the client to trust
                keys: [try MockProviderKey(keyID: "KEY1234567", teamID: "TEAM123456", privateKey: key)]))

        let client = APNsClient(
            transport: try NGHTTP2Transport(TransportConfiguration(environment: mock.environment)),
            tokens: TokenProvider(key: key, keyID: "KEY1234567", teamID: "TEAM123456"))
        let result = await client.send(notification)

        expect(mock.notifications.first?.typedPayload?.aps.category == "message")  // #expect in a Swift Testing test
        await mock.stop()
        // snippet.hide
        _ = result
    }
#endif
