import Foundation
import PushbuttonAPNsMock
import Testing

/// The mock's setup errors carry a code to branch on, with the message they always had.
@Suite(.timeLimit(.minutes(5))) struct MockAPNsErrorTests {
    @Test func aPortInUseIsAListenError() async throws {
        let first = try await MockAPNs.start(MockAPNsConfiguration(port: 0, security: .h2c))
        let error = await #expect(throws: MockAPNsError.self) {
            _ = try await MockAPNs.start(MockAPNsConfiguration(port: first.port, security: .h2c))
        }
        #expect(error?.code == .listen)
        #expect(error?.description == error?.message && error?.message.isEmpty == false)
        await first.stop()
    }

    @Test func aCertificateThatCannotBeReadIsATLSConfigurationError() async throws {
        let missing = NSTemporaryDirectory() + "pushbutton-no-such-\(UUID().uuidString)"
        let error = await #expect(throws: MockAPNsError.self) {
            _ = try await MockAPNs.start(
                MockAPNsConfiguration(
                    port: 0,
                    security: .certificate(chainFile: missing + "/chain.pem", privateKeyFile: missing + "/key.pem")))
        }
        #expect(error?.code == .tlsConfiguration)
        #expect(error?.message.contains("chain.pem") == true)
    }
}
