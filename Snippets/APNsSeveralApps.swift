// One sender for several apps, teams and environments: each notification goes with its topic's app's client.
import PushbuttonAPNs

// snippet.hide
func sendForSeveralApps(notification: APNsNotification) async throws -> APNsResult {
    // snippet.show
    let key = try P256PrivateKey(contentsOf: "AuthKey_KEY1234567.p8")
    let team = APNsApp.Credentials.token(key: key, keyID: "KEY1234567", teamID: "TEAM123456")
    let clients = try APNsClients(apps: [
        APNsApp(topic: "com.example.chat", environment: .production, credentials: team),
        APNsApp(topic: "com.example.maps", environment: .production, credentials: team),
        APNsApp(topic: "com.example.chat", environment: .sandbox, credentials: team),
        APNsApp(
            topic: "com.example.legacy", environment: .production,
            credentials: .certificate(.pkcs12(file: "legacy.p12", passphraseFile: "legacy.pass"))),
    ])
    let result = await clients.send(notification, environment: .sandbox)
    // snippet.hide
    return result
}
