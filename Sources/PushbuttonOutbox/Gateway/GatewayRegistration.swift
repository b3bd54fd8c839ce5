import Foundation
import Pushbutton

/// What the device last registered with the gateway, kept in a small file beside the outbox so a launch can
/// tell whether the token, the locale or the app version changed.
struct GatewayRegistration: Sendable, Hashable {
    var token: String
    var environment: String
    var locale: String?
    var appVersion: String?
    var userID: String?
    var tags: [String]
    var registeredAt: Date
    /// The device's IANA time zone, for the gateway's local-time sends.
    var timeZone: String?

    /// Whether `other` says the same to the gateway (the time aside).
    func matches(_ other: GatewayRegistration) -> Bool {
        var same = other
        same.registeredAt = registeredAt
        return same == self
    }

    /// The `PUT /v1/apps/{app}/devices/{token}` body.
    var body: JSONValue {
        var object: [String: JSONValue] = [
            "environment": .string(environment), "tags": .array(tags.map(JSONValue.string)),
            "registered_at": .integer(milliseconds),
        ]
        if let locale { object["locale"] = .string(locale) }
        if let appVersion { object["app_version"] = .string(appVersion) }
        if let userID { object["user_id"] = .string(userID) }
        if let timeZone { object["time_zone"] = .string(timeZone) }
        return .object(object)
    }

    /// Names this registration in the outbox: two that differ in anything, even made in the same millisecond,
    /// are two entries.
    var idempotencyKey: String {
        "register:\(token):\(milliseconds):" + String(FNV1a.hash(JSONWriter.compact(body)), radix: 16)
    }

    var milliseconds: Int64 { Int64((registeredAt.timeIntervalSince1970 * 1000).rounded()) }

    var jsonValue: JSONValue {
        var object = body.objectValue ?? [:]
        object["token"] = .string(token)
        return .object(object)
    }

    init(
        token: String, environment: String, locale: String?, appVersion: String?, userID: String?, tags: [String],
        registeredAt: Date, timeZone: String? = nil
    ) {
        self.timeZone = timeZone
        self.token = token
        self.environment = environment
        self.locale = locale
        self.appVersion = appVersion
        self.userID = userID
        self.tags = tags
        self.registeredAt = registeredAt
    }

    init?(_ value: JSONValue) {
        guard let object = value.objectValue, let token = object["token"]?.stringValue,
            let environment = object["environment"]?.stringValue,
            let milliseconds = object["registered_at"]?.integerValue
        else { return nil }
        self.init(
            token: token, environment: environment, locale: object["locale"]?.stringValue,
            appVersion: object["app_version"]?.stringValue, userID: object["user_id"]?.stringValue,
            tags: object["tags"]?.arrayValue?.compactMap(\.stringValue) ?? [],
            registeredAt: Date(timeIntervalSince1970: Double(milliseconds) / 1000),
            timeZone: object["time_zone"]?.stringValue)
    }
}
