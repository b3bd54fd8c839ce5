// A Live Activity started by push (push-to-start): the attributes type, its attributes, the first state, an alert.
import Foundation
import Pushbutton

// snippet.hide
func startPayload() -> [UInt8] {
    // snippet.show
    let start = LiveActivityPush.start(
        attributesType: "DeliveryAttributes", attributes: ["order": 42], contentState: ["minutes": 12],
        alert: AlertContent(title: "On its way", body: "12 minutes"), timestamp: Date())
    let bytes = PayloadWriter.encode(start.payload)
    // snippet.hide
    return bytes
}
