import Foundation
import Testing

@testable import Pushbutton

@Suite struct PayloadTemplateTests {
    static let validator = PayloadValidatorTests.validator

    static func campaign() -> Payload {
        var payload = Payload.interactive(
            category: "message", title: "{{name}}", body: "Hi {{name}}, lunch at {{hour}}:00?")
        payload.addAction(
            ActionSpec(ActionSpec.callback, arguments: ["url": "https://api.example.com/messages/{{id}}/like"]),
            forButton: "like")
        payload.addBodyAction(ActionSpec(ActionSpec.deepLink, arguments: ["url": "chatter://message/{{id}}"]))
        payload.actionArguments = ["id": "{{id}}", "user": "user-{{id}}"]
        payload.custom["note"] = "{{note}}"
        return payload
    }

    /// The same payload written by hand with the values in place.
    static func expected(name: String, hour: Int, id: Int, note: JSONValue) -> Payload {
        var payload = Payload.interactive(category: "message", title: name, body: "Hi \(name), lunch at \(hour):00?")
        payload.addAction(
            ActionSpec(ActionSpec.callback, arguments: ["url": .string("https://api.example.com/messages/\(id)/like")]),
            forButton: "like")
        payload.addBodyAction(ActionSpec(ActionSpec.deepLink, arguments: ["url": .string("chatter://message/\(id)")]))
        payload.actionArguments = ["id": .integer(Int64(id)), "user": .string("user-\(id)")]
        payload.custom["note"] = note
        return payload
    }

    @Test func rendersExactlyWhatTheWriterWritesForTheSameValues() throws {
        let template = try PayloadTemplate(Self.campaign(), validator: Self.validator)
        #expect(template.placeholders == ["id", "name", "hour", "note"])
        var writer = JSONWriter()
        for (name, note) in [("Anna", JSONValue.null), ("Zoë \"Z\"\n😀", ["a": [1, true]]), ("", .double(0.5))] {
            let values = try template.values(["id": 42, "name": .string(name), "hour": 9, "note": note])
            try template.render(values, into: &writer)
            #expect(writer.bytes == PayloadWriter.encode(Self.expected(name: name, hour: 9, id: 42, note: note)))
        }
    }

    @Test func aTemplateWithoutPlaceholdersIsThePayload() throws {
        let payload = Payload.interactive(category: "message", title: "Fixed {{ not a placeholder }} {{}}", body: "b")
        let template = try PayloadTemplate(payload)
        #expect(template.placeholders.isEmpty)
        #expect(try template.render([]) == PayloadWriter.encode(payload))
    }

    @Test func theStructureCannotHoldPlaceholders() {
        var payload = Payload.interactive(category: "{{category}}", body: "b")
        payload.addAction(ActionSpec("{{action}}"), forButton: "like")
        payload.custom["{{key}}"] = 1
        #expect {
            try PayloadTemplate(payload)
        } throws: { error in
            let paths = (error as? PayloadTemplateError)?.diagnostics.map(\.path.description) ?? []
            return Set(paths) == ["aps.category", "pushbutton.buttons.like[0].action", "[\"{{key}}\"]"]
        }
    }

    @Test func theTemplateIsValidatedAgainstTheManifestOnce() {
        let payload = Payload.interactive(category: "mesage", body: "Hi {{name}}")
        #expect {
            try PayloadTemplate(payload, validator: Self.validator)
        } throws: { error in
            (error as? PayloadTemplateError)?.diagnostics.first?.code == .unknownCategory
        }
    }

    @Test func urlsWhoseSchemeOrHostComesFromAValueAreRecheckedOnEveryRender() throws {
        var payload = Payload.interactive(category: "message", body: "b")
        payload.addBodyAction(ActionSpec(ActionSpec.openURL, arguments: ["url": "{{page}}"]))
        payload.addAction(
            ActionSpec(ActionSpec.callback, arguments: ["url": "https://{{host}}/like"]), forButton: "like")
        let template = try PayloadTemplate(payload)
        #expect(template.urlChecks.count == 2)
        _ = try template.render([.string("https://example.com/a"), .string("api.example.com")])
        #expect(throws: PayloadTemplateError.self) {
            try template.render([.string("chatter://x"), .string("api.example.com")])
        }
        #expect(throws: PayloadTemplateError.self) {
            try template.render([.string("https://example.com"), .string("")])
        }
        // A fixed scheme and host need no re-check.
        #expect(try PayloadTemplate(Self.campaign()).urlChecks.isEmpty)
    }

    @Test func actionsInsideAGroupAreCheckedLikeTheirOwnSpecs() throws {
        var payload = Payload.interactive(category: "friend_request", body: "b")
        payload.addAction(
            ActionSpec(
                ActionSpec.group,
                arguments: [
                    "actions": [
                        ["action": "pushbutton.callback", "args": ["url": "https://{{host}}/accept"]],
                        ["action": "pushbutton.share", "args": ["url": "{{link}}"]],
                    ]
                ]), forButton: "accept")
        let template = try PayloadTemplate(payload)
        #expect(template.urlChecks.map(\.needsWeb) == [true, true])
        #expect(template.urlChecks.map(\.needsHost) == [true, false])
        _ = try template.render(template.values(["host": "api.example.com", "link": "https://example.com/u/1"]))
        #expect(throws: PayloadTemplateError.self) {
            try template.render(template.values(["host": "api.example.com", "link": "chatter://u/1"]))
        }
        // A group's action names are structure, like a button's.
        var named = Payload.interactive(category: "friend_request", body: "b")
        named.addAction(
            ActionSpec(ActionSpec.group, arguments: ["actions": [["action": "{{what}}"]]]), forButton: "accept")
        #expect {
            try PayloadTemplate(named)
        } throws: { error in
            (error as? PayloadTemplateError)?.diagnostics.map(\.path.description) == [
                "pushbutton.buttons.accept[0].args.actions[0].action"
            ]
        }
    }

    @Test func renderingRefusesWrongValuesAndOversizePayloads() throws {
        let template = try PayloadTemplate(Self.campaign())
        #expect(throws: PayloadTemplateError.self) { try template.render([.integer(1)]) }
        #expect(throws: PayloadTemplateError.self) { try template.render([.integer(1), .array([]), .integer(9), nil]) }
        #expect(throws: PayloadTemplateError.self) { try template.values(["id": 1]) }
        #expect(throws: PayloadTemplateError.self) {
            try template.values(["id": 1, "name": "a", "hour": 1, "note": 1, "x": 1])
        }
        let huge = JSONValue.string(String(repeating: "x", count: 5000))
        #expect {
            try template.render([.integer(1), huge, .integer(9), nil])
        } throws: { error in
            "\(error)".contains("over APNs' 4096-byte limit")
        }
    }
}
