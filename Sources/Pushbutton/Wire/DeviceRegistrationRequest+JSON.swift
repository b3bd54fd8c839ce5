import Foundation

extension DeviceRegistrationRequest {
    /// Every member of the body this message defines. The gateway reads more (`quiet_hours`, set by a backend on a
    /// device's behalf) and refuses anything else; a reader here ignores unknown members.
    public static let bodyKeys = [
        "environment", "locale", "app_version", "user_id", "tags", "registered_at", "time_zone",
    ]
    /// The environments APNs has.
    public static let environments = ["production", "sandbox"]
    /// The last millisecond of year 9999: a later `registered_at` does not come back as epoch milliseconds (it made
    /// the gateway's rendering trap, found by `make api-fuzz`).
    public static let latestRegisteredAtMilliseconds: Int64 = 253_402_300_799_999

    /// The `PUT` body: `environment`, `tags` and `registered_at` always, the others when known.
    public var bodyJSON: JSONValue {
        var object: [String: JSONValue] = [
            "environment": .string(environment), "tags": .array(tags.map(JSONValue.string)),
            "registered_at": .integer(registeredAtMilliseconds),
        ]
        if let locale { object["locale"] = .string(locale) }
        if let appVersion { object["app_version"] = .string(appVersion) }
        if let userID { object["user_id"] = .string(userID) }
        if let timeZone { object["time_zone"] = .string(timeZone) }
        return .object(object)
    }

    /// The body with the `token`: what a device keeps of its last registration (the outbox's `.gateway.json`).
    public var stateJSON: JSONValue {
        var object = bodyJSON.objectValue ?? [:]
        object["token"] = .string(token)
        return .object(object)
    }

    /// Reads a registration a device kept with ``stateJSON``; `nil` when it is not one (a file to redo).
    public init?(stateJSON value: JSONValue) {
        var diagnostics: [Diagnostic] = []
        guard let object = value.objectValue, let token = object["token"]?.stringValue,
            object["registered_at"] != nil,
            let registration = Self.read(
                body: value, token: token, at: .root, receivedAt: Date(timeIntervalSince1970: 0),
                diagnostics: &diagnostics)
        else { return nil }
        self = registration
    }

    /// Reads a `PUT` body for the device `token`, or returns `nil` and appends a diagnostic per problem, each with
    /// its path under `path`.
    ///
    /// Unknown members are ignored; limits on lengths, tag sizes and time-zone names are the gateway's to add.
    ///
    /// - Parameters:
    ///   - receivedAt: The registration time when the body has no `registered_at`.
    ///   - maximumTags: More tags than this are one diagnostic, and none of them is read.
    public static func read(
        body value: JSONValue, token: String, at path: JSONPath, receivedAt: Date, maximumTags: Int = .max,
        diagnostics: inout [Diagnostic]
    ) -> DeviceRegistrationRequest? {
        guard let members = value.objectValue else {
            diagnostics.append(
                Diagnostic(
                    .error, .typeMismatch, at: path, "the device must be an object, not \(value.typeDescription)"))
            return nil
        }
        let before = WireObject.errors(in: diagnostics)
        let body = WireObject(members: members, path: path)
        let environment = body.string("environment", diagnostics: &diagnostics) ?? "production"
        if !environments.contains(environment) {
            body.fail(
                "environment", .unknownValue, "'environment' must be production or sandbox",
                hint: "development builds use sandbox", diagnostics: &diagnostics)
        }
        var registeredAt = receivedAt
        if let value = members["registered_at"] {
            if let milliseconds = value.integerValue, (1...latestRegisteredAtMilliseconds).contains(milliseconds) {
                registeredAt = Date(timeIntervalSince1970: Double(milliseconds) / 1000)
            } else {
                body.fail(
                    "registered_at", .typeMismatch,
                    "'registered_at' must be epoch milliseconds up to year 9999 (when the app got its token)",
                    diagnostics: &diagnostics)
            }
        }
        let locale = body.string("locale", diagnostics: &diagnostics)
        let appVersion = body.string("app_version", diagnostics: &diagnostics)
        let userID = body.string("user_id", diagnostics: &diagnostics)
        let tags = body.strings("tags", maximumCount: maximumTags, diagnostics: &diagnostics) ?? []
        let timeZone = body.string("time_zone", diagnostics: &diagnostics)
        guard WireObject.errors(in: diagnostics) == before else { return nil }
        return DeviceRegistrationRequest(
            token: token, environment: environment, locale: locale, appVersion: appVersion, userID: userID,
            tags: tags, registeredAt: registeredAt, timeZone: timeZone)
    }
}
