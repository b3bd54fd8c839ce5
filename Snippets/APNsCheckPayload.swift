// A payload checked against the manifest the app registers from, before it leaves the server.
import Foundation
import Pushbutton
import PushbuttonAPNs

// snippet.hide
/// What the server throws when a payload has errors.
struct ValidationFailed: Error {
    let problems: [Diagnostic]
    init(_ problems: [Diagnostic]) { self.problems = problems }
}

func checkedPayload(manifestURL: URL) throws -> Payload {
    // snippet.show
    let manifest = try JSONDecoder().decode(Manifest.self, from: Data(contentsOf: manifestURL))
    let validator = PayloadValidator(manifest: manifest)

    var payload = Payload.interactive(category: "message", title: "Anna", body: "Lunch tomorrow at noon?")
    payload.addAction(
        ActionSpec("pushbutton.callback", arguments: ["url": "https://api.example.com/messages/42/like"]),
        forButton: "like")
    payload.actionArguments = ["message_id": .integer(42)]

    let problems = validator.validate(payload).filter { $0.severity == .error }
    guard problems.isEmpty else { throw ValidationFailed(problems) }  // each says where, what and how to fix it
    // snippet.hide
    return payload
}
