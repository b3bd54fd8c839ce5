import Foundation
import PushbuttonSupport
import Testing

@testable import PushbuttonAPNsMock

/// The mock reports every answer to its observer (`pushbutton mock-apns` logs them so) for as long as it runs:
/// reading the observer once per answer must not cost more each time. Kept in a `Locked<closure>`, each read
/// wrapped the closure in one more thunk and the mock crashed with a stack overflow after ~29,000 logged
/// answers (red-team M5, issue 32).
@Suite(.timeLimit(.minutes(2)))
struct AnswerObserverTests {
    @Test func theObserverSeesTwoHundredThousandAnswersWithoutCrashing() {
        let service = MockAPNsService(
            configuration: MockAPNsConfiguration(port: 0, security: .h2c), verifier: ProviderTokenVerifier(keys: []),
            registry: DeviceRegistry())
        let seen = Locked(0)
        service.observer.set { answer in
            if answer.status == 400 { seen.withLock { $0 += 1 } }
        }
        let response = MockResponse(status: 400, reason: "BadDeviceToken")
        let path = "/3/device/" + String(repeating: "ab", count: 32)
        // The path the server thread takes for every answer, without the network.
        for _ in 0..<200_000 {
            service.answered(
                response, apnsID: "00000000-0000-0000-0000-000000000001", accepted: nil, path: path, connection: 1)
        }
        #expect(seen.withLock { $0 } == 200_000)
    }
}
