// One alert from your server in two lines: a client for the production environment, one notification.
import Pushbutton
import PushbuttonAPNs

// snippet.hide
// NGHTTP2Transport is the sender's transport on Linux only (as in PushbuttonAPNs).
#if canImport(CNGHTTP2) && canImport(COpenSSL)
    func sendOneAlert(hex: String) async throws -> APNsResult {
        // snippet.show
        let client = try APNsClient(
            environment: .production, keyFile: "AuthKey_ABC123DEFG.p8", keyID: "ABC123DEFG", teamID: "DEF123GHIJ")
        let result = await client.send(
            try APNsNotification(
                deviceToken: hex,
                payload: .interactive(category: "message", title: "Anna", body: "Lunch tomorrow at noon?"),
                topic: "com.example.chatter", priority: .immediately))
        // snippet.hide
        return result
    }
#endif
