// Send one interactive notification to APNs and act on its definite outcome.
import Foundation
import Pushbutton
import PushbuttonAPNs

// snippet.hide
// NGHTTP2Transport is the sender's transport on Linux only (as in PushbuttonAPNs).
#if canImport(CNGHTTP2) && canImport(COpenSSL)
    func sendAndAct(hex: String, forget: (String, Date?) -> Void, log: (APNsResult) -> Void) async throws {
        // snippet.show
        let client = try APNsClient(
            environment: .production, keyFile: "AuthKey_ABC123DEFG.p8", keyID: "ABC123DEFG", teamID: "DEF123GHIJ")
        let result = await client.send(
            try APNsNotification(
                deviceToken: hex, payload: .interactive(category: "message", body: "Lunch?"),
                topic: "com.example.chatter", priority: .immediately))
        switch result {
        case .delivered: break
        case .rejected(_, _, let reason, let since) where reason.tokenIsDead: forget(hex, since)
        case .rejected, .failed: log(result)  // tokens and keys never print themselves
        }
        // snippet.hide
    }
#endif
