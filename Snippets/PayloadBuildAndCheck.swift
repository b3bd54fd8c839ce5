// A payload with per-button actions, checked against the manifest, written as compact JSON.
import Pushbutton

// snippet.hide
func buildPayload(manifest: Manifest) -> [UInt8] {
    // snippet.show
    var payload = Payload.interactive(category: "message", title: "Anna", body: "Lunch tomorrow?")
    payload.addAction(
        ActionSpec(ActionSpec.callback, arguments: ["url": "https://api.example.com/messages/42/like"]),
        forButton: "like")
    payload.addBodyAction(ActionSpec(ActionSpec.deepLink, arguments: ["url": "chatter://conversation/anna"]))

    let validator = PayloadValidator(manifest: manifest)
    let problems = validator.validate(payload)  // [] when the device will show and run it as meant
    let bytes = PayloadWriter.encode(payload)
    // snippet.hide
    _ = problems
    return bytes
}
