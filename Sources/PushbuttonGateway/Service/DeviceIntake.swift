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

    static let deviceKeys = ["environment", "locale", "app_version", "user_id", "tags", "registered_at"] + whenKeys
    /// The keys of issue 35's "when": the device's IANA time zone.
    static let whenKeys = ["time_zone", "quiet_hours"]
    /// The last millisecond of year 9999: a later `registered_at` does not come back as epoch milliseconds (it
    /// made the rendering trap, found by `make api-fuzz`).
    static let latestRegistration: Int64 = 253_402_300_799_999

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
        let environment = reader.string("environment", diagnostics: &diagnostics) ?? "production"
        if !["production", "sandbox"].contains(environment) {
            diagnostics.append(
                Diagnostic(
                    .error, .unknownValue, at: .root.appending("environment"),
                    "'environment' must be production or sandbox", hint: "development builds use sandbox"))
        }
        let now = self.now()
        var registeredAt = now
        if let value = reader.members["registered_at"] {
            if let milliseconds = value.integerValue, (1...Self.latestRegistration).contains(milliseconds) {
                registeredAt = Self.registeredAt(milliseconds: milliseconds, now: now)
            } else {
                diagnostics.append(
                    Diagnostic(
                        .error, .typeMismatch, at: .root.appending("registered_at"),
                        "'registered_at' must be epoch milliseconds up to year 9999 (when the app got its token)"))
            }
        }
        func bounded(_ key: String, _ maximumBytes: Int) -> String? {
            let text = reader.string(key, diagnostics: &diagnostics)
            if let text {
                InputLimits.check(
                    text, key, at: .root.appending(key), maximumBytes: maximumBytes, diagnostics: &diagnostics)
            }
            return text
        }
        let locale = bounded("locale", InputLimits.localeBytes)
        let appVersion = bounded("app_version", InputLimits.appVersionBytes)
        let userID = bounded("user_id", InputLimits.userIDBytes)
        // The count first: a million tags is one diagnostic, not one per tag.
        let tags = reader.strings("tags", maximumCount: InputLimits.tagsPerDevice, diagnostics: &diagnostics) ?? []
        for (index, tag) in tags.enumerated() {
            InputLimits.check(
                tag, "tags[\(index)]", at: .root.appending("tags").appending(index),
                maximumBytes: InputLimits.tagBytes, diagnostics: &diagnostics)
        }
        let timeZone = reader.string("time_zone", diagnostics: &diagnostics)
        if let timeZone, !TimeZoneName.isKnown(timeZone) {
            diagnostics.append(TimeZoneName.unknown(timeZone, at: .root.appending("time_zone")))
        }
        var registration = DeviceRegistration(
            app: app.id, token: token.lowercased(), environment: environment, locale: locale, appVersion: appVersion,
            userID: userID, tags: tags, registeredAt: registeredAt, timeZone: timeZone)
        if let value = reader.members["quiet_hours"],
            let quiet = QuietHours.read(value, at: .root.appending("quiet_hours"), diagnostics: &diagnostics)
        {
            registration.quietHours = (quiet.start, quiet.end)
        }
        guard !diagnostics.containsErrors else { throw .invalid(document.locating(diagnostics), what: "the device") }
        return try storing { () throws(StoreError) in try store.register(registration, now: now) }
    }

    /// When a device says it registered, bounded by the server's clock: a time in the future is taken as now.
    /// A token dies for good only by a 410 newer than its registration, so a registration dated in 2100 would
    /// make the token immune to every 410 until then.
    static func registeredAt(milliseconds: Int64, now: Date) -> Date {
        min(Date(timeIntervalSince1970: Double(milliseconds) / 1000), now)
    }

    /// Forgets a device; whether one was registered.
    func forget(app: AppRuntime, token: String) throws(GatewayError) -> Bool {
        try storing { () throws(StoreError) in try store.forget(app: app.id, token: token.lowercased()) }
    }
}
