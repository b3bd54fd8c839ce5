// A Live Activity update sent with the sender, to the `.push-type.liveactivity` topic.
import Foundation
import Pushbutton
import PushbuttonAPNs

// snippet.hide
func sendUpdate(client: APNsClient, activityToken: String) async throws -> APNsResult {
    // snippet.show
    let push = LiveActivityPush.update(contentState: ["minutes": 4], timestamp: Date())
    let result = await client.send(try .liveActivity(push, deviceToken: activityToken, bundleID: "com.example.app"))
    // snippet.hide
    return result
}
