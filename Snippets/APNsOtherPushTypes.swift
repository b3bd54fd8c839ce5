// A widgets reload and a Live Activity update, each sent to the topic its push type needs.
import Foundation
import Pushbutton
import PushbuttonAPNs

// snippet.hide
func sendOtherTypes(client: APNsClient, token: DeviceToken, activityToken: String) async throws {
    // snippet.show
    let reload = APNsNotification(
        deviceToken: token, payload: .contentChanged(), bundleID: "com.example.app", pushType: .widgets)
    let push = LiveActivityPush.update(contentState: ["minutes": 4], timestamp: Date())
    let result = await client.send(try .liveActivity(push, deviceToken: activityToken, bundleID: "com.example.app"))
    // snippet.hide
    _ = (reload, result)
}
