// A Live Activity's update (the new content state) and end (the final state, and when to remove it).
import Foundation
import Pushbutton

// snippet.hide
func updateAndEnd() -> [Payload] {
    // snippet.show
    let update = Payload.liveActivity(.update(contentState: ["minutes": 4], timestamp: Date()))
    let end = Payload.liveActivity(.end(contentState: ["minutes": 0], timestamp: Date(), dismissalDate: Date()))
    // snippet.hide
    return [update, end]
}
