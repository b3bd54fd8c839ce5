// A broadcast to a channel the mock holds, checked in what the mock recorded.
import PushbuttonAPNs
import PushbuttonAPNsMock

// snippet.hide
func expect(_ condition: Bool) { precondition(condition) }

func broadcastToTheMock(mock: MockAPNs, client: APNsClient, update: [UInt8]) async {
    // snippet.show
    let channel = mock.channels.add(bundleID: "com.example.scores")!  // or create it through APNsChannels
    let result = await client.send(
        APNsBroadcast(bundleID: "com.example.scores", channelID: channel.id, payload: update))
    expect(mock.broadcasts.first?.channelID == channel.id)  // #expect in a Swift Testing test
    // snippet.hide
    _ = result
}
