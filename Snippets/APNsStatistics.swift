// Counters and latencies of everything the client does, read whenever you like.
import PushbuttonAPNs

// snippet.hide
// NGHTTP2Transport is the sender's transport on Linux only (as in PushbuttonAPNs).
#if canImport(CNGHTTP2) && canImport(COpenSSL)
    func countedClient(keyFile: String, keyID: String, teamID: String) throws {
        // snippet.show
        let statistics = APNsStatistics()
        let client = try APNsClient(
            environment: .production, keyFile: keyFile, keyID: keyID, teamID: teamID, observer: statistics)
        // … send …
        let counters = statistics.counters
        print(
            counters.delivered, counters.rejectedByReason["Unregistered", default: 0], counters.latency.meanMilliseconds
        )
        // snippet.hide
        _ = client
    }
#endif
