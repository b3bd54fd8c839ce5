// One notification on an explicit transport and token provider, with each of the three outcomes handled.
import Foundation
import Pushbutton
import PushbuttonAPNs

// snippet.hide
// NGHTTP2Transport is the sender's transport on Linux only (as in PushbuttonAPNs).
#if canImport(CNGHTTP2) && canImport(COpenSSL)
    func sendOne(
        payload: Payload, hex: String, log: (Any...) -> Void, forgetDevice: (String, Date) -> Void
    ) async throws {
        // snippet.show
        let client = APNsClient(
            transport: try NGHTTP2Transport(TransportConfiguration(environment: .production)),
            tokens: TokenProvider(
                key: try P256PrivateKey(contentsOf: "AuthKey_ABC123DEFG.p8"), keyID: "ABC123DEFG", teamID: "DEF123GHIJ")
        )

        switch await client.send(
            APNsNotification(
                deviceToken: try DeviceToken(hex), payload: PayloadWriter.encode(payload),
                topic: "com.example.chatter", priority: 10))
        {
        case .delivered(let apnsID, _): log("sent", apnsID)
        case .rejected(_, 410, _, let since?): forgetDevice(hex, since)  // the app was removed
        case .rejected(_, _, let reason, _): log("refused", reason)  // final: retrying cannot help
        case .failed(_, let attempts, let cause): log("gave up", attempts, cause)
        }
        // snippet.hide
    }
#endif
