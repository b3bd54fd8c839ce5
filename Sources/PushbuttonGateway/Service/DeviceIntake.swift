import Foundation
import Pushbutton
import PushbuttonAPNs
import PushbuttonStore

/// Registers and forgets devices (`PUT` and `DELETE /v1/apps/{app}/devices/{token}`).
final class DeviceIntake: Sendable {
    let store: any GatewayStore
    let now: @Sendable () -> Date

    init(store: any GatewayStore, now: @escaping @Sendable () -> Date) {
        self.store = store
        self.now = now
    }

    /// The registration's members (the device's wire message) and the quiet hours a backend may set.
    static let deviceKeys = DeviceRegistrationRequest.bodyKeys + ["quiet_hours"]

    /// Registers (or updates) a device; its record as stored.
    func register(app: AppRuntime, token: String, body: [UInt8]) throws(GatewayError) -> DeviceRecord {
        var diagnostics: [Diagnostic] = []
        var token = token
        do {
            token = try DeviceToken(token).hex
        } catch {
            diagnostics.append(
                Diagnostic(
                    .error, "invalid-token", at: .root, "the device token in the path: \(error.message)",
                    hint: "PUT /v1/apps/{app}/devices/{64 to 200 hex digits}"))
        }
        let document = try IntakeRequest.document(body.isEmpty ? Array("{}".utf8) : body, what: "the device")
        guard
            let reader = ConfigReader(document.value, at: .root, what: "the device", diagnostics: &diagnostics)
        else { throw .invalid(document.locating(diagnostics), what: "the device") }
        reader.unknownKeys(known: Self.deviceKeys, diagnostics: &diagnostics)
        let now = self.now()
        // The wire's reading (the device's own codec), then the gateway's limits on what it read.
        let request = DeviceRegistrationRequest.read(
            body: document.value, token: token.lowercased(), at: .root, receivedAt: now,
            maximumTags: InputLimits.tagsPerDevice, diagnostics: &diagnostics)
        Self.checkLimits(reader.members, diagnostics: &diagnostics)
        var quietHours: QuietHours?
        if let value = reader.members["quiet_hours"] {
            quietHours = QuietHours.read(value, at: .root.appending("quiet_hours"), diagnostics: &diagnostics)
        }
        guard !diagnostics.containsErrors, var request else {
            throw .invalid(document.locating(diagnostics), what: "the device")
        }
        // A time in the future is taken as now: a token dies for good only by a 410 newer than its registration, so
        // a registration dated in 2100 would make the token immune to every 410 until then.
        request.registeredAt = min(request.registeredAt, now)
        var registration = DeviceRegistration(app: app.id, request: request)
        if let quietHours { registration.quietHours = (quietHours.start, quietHours.end) }
        return try storing { () throws(StoreError) in try store.register(registration, now: now) }
    }

    /// The gateway's limits on what the wire's reading accepted: string and tag sizes, known time-zone names.
    static func checkLimits(_ members: [String: JSONValue], diagnostics: inout [Diagnostic]) {
        for (key, maximumBytes) in [
            ("locale", InputLimits.localeBytes), ("app_version", InputLimits.appVersionBytes),
            ("user_id", InputLimits.userIDBytes),
        ] {
            if let text = members[key]?.stringValue, !text.isEmpty {
                InputLimits.check(
                    text, key, at: .root.appending(key), maximumBytes: maximumBytes, diagnostics: &diagnostics)
            }
        }
        if let tags = members["tags"]?.arrayValue, tags.count <= InputLimits.tagsPerDevice {
            for (index, tag) in tags.enumerated() {
                guard let tag = tag.stringValue else { continue }
                InputLimits.check(
                    tag, "tags[\(index)]", at: .root.appending("tags").appending(index),
                    maximumBytes: InputLimits.tagBytes, diagnostics: &diagnostics)
            }
        }
        if let timeZone = members["time_zone"]?.stringValue, !timeZone.isEmpty, !TimeZoneName.isKnown(timeZone) {
            diagnostics.append(TimeZoneName.unknown(timeZone, at: .root.appending("time_zone")))
        }
    }

    /// Forgets a device; whether one was registered.
    func forget(app: AppRuntime, token: String) throws(GatewayError) -> Bool {
        try storing { () throws(StoreError) in try store.forget(app: app.id, token: token.lowercased()) }
    }
}
