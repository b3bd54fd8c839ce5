import Foundation
import Pushbutton
import PushbuttonAPNs
import PushbuttonStore

/// What the device tag route calls: a device adds and removes its own tags (`BackendTagStore` on the device
/// posts each change), without registering again.
final class DeviceTagService: Sendable {
    let store: any GatewayStore
    let now: @Sendable () -> Date

    /// Tags one change may name, at most.
    static let maximumTags = 100

    init(store: any GatewayStore, now: @escaping @Sendable () -> Date) {
        self.store = store
        self.now = now
    }

    /// `POST /v1/apps/{app}/devices/{token}/tags` with `{"add": [...], "remove": [...]}`.
    func update(app: AppRuntime, token: String, body: [UInt8]) throws(GatewayError) -> DeviceRecord {
        let document = try IntakeRequest.document(body, what: "the tag change")
        var diagnostics: [Diagnostic] = []
        if (try? DeviceToken(token)) == nil {
            diagnostics.append(
                Diagnostic(
                    .error, "invalid-token", at: .root,
                    "the device token in the path is not 64 to \(DeviceToken.maximumDigits) hexadecimal digits",
                    hint: "POST /v1/apps/{app}/devices/{token in hex}/tags"))
        }
        guard let reader = ConfigReader(document.value, at: .root, what: "the tag change", diagnostics: &diagnostics)
        else { throw .invalid(document.locating(diagnostics), what: "the tag change") }
        reader.unknownKeys(known: ["add", "remove"], diagnostics: &diagnostics)
        let add = reader.strings("add", diagnostics: &diagnostics) ?? []
        let remove = reader.strings("remove", diagnostics: &diagnostics) ?? []
        for (key, tags) in [("add", add), ("remove", remove)] {
            if tags.count > Self.maximumTags {
                diagnostics.append(
                    Diagnostic(
                        .error, .valueRange, at: .root.appending(key), "more than \(Self.maximumTags) tags in '\(key)'")
                )
            }
            for (index, tag) in tags.enumerated() where tag.isEmpty || tag.count > TapService.maximumIdentifierLength {
                diagnostics.append(
                    Diagnostic(
                        .error, .valueRange, at: .root.appending(key).appending(index),
                        "a tag is 1 to \(TapService.maximumIdentifierLength) characters"))
            }
        }
        guard !diagnostics.containsErrors else {
            throw .invalid(document.locating(diagnostics), what: "the tag change")
        }
        guard let tagStore = store as? any DeviceTagStore else {
            throw GatewayError(501, "not_supported", "this gateway's store cannot change a device's tags")
        }
        let updated: DeviceRecord?
        do {
            updated = try tagStore.updateTags(
                app: app.id, token: token.lowercased(), add: add, remove: remove, now: now())
        } catch {
            throw .store(error)
        }
        guard let updated else {
            throw .notFound("no device with this token is registered for '\(app.id)'; register it first (PUT)")
        }
        return updated
    }
}
