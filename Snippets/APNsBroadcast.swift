// A broadcast channel for a Live Activity: created once, then one request per update to every subscriber.
import Pushbutton
import PushbuttonAPNs

// snippet.hide
// NGHTTP2Transport is the sender's transport on Linux only (as in PushbuttonAPNs).
#if canImport(CNGHTTP2) && canImport(COpenSSL)
    func broadcastScore(keyFile: String, keyID: String, teamID: String, forget: (APNsChannel) -> Void) async throws {
        // snippet.show
        let channels = try APNsChannels(environment: .production, keyFile: keyFile, keyID: keyID, teamID: teamID)
        let channel = try await channels.create(
            bundleID: "com.example.scores", messageStoragePolicy: .mostRecentMessageStored)
        // give channel.id to the app; its Live Activity subscribes with .channel(channel.id)

        let client = try APNsClient(environment: .production, keyFile: keyFile, keyID: keyID, teamID: teamID)
        let result = await client.send(
            APNsBroadcast(
                bundleID: "com.example.scores", channelID: channel.id,
                payload: Array(
                    #"{"aps":{"timestamp":1733000000,"event":"update","content-state":{"score":"2-1"}}}"#.utf8),
                priority: 5))
        if case .rejected(_, _, let reason, _) = result, reason.channelIsGone { forget(channel) }
        // snippet.hide
    }
#endif
