import Foundation

extension TapEvent {
    /// Every member a tap event may have on the wire; the gateway refuses any other (a reader here ignores it).
    public static let keys = [
        "event_id", "token", "notification", "campaign", "variant", "category", "response", "button", "foreground",
        "latency_ms", "reply", "at",
    ]

    /// The event as the device sends it. `campaign` and `latency_ms` are written as `null` when absent (as devices
    /// always have); `variant`, `button` and `reply` are left out.
    public var jsonValue: JSONValue {
        var object: [String: JSONValue] = [
            "event_id": .string(eventID), "token": .string(token), "notification": .string(notificationID),
            "campaign": campaignID.map(JSONValue.string) ?? .null, "category": .string(category),
            "response": .string(response.rawValue), "foreground": .bool(foreground),
            "latency_ms": latencyMilliseconds.map(JSONValue.integer) ?? .null, "at": .string(RFC3339.text(respondedAt)),
        ]
        if let variant { object["variant"] = .string(variant) }
        if let button { object["button"] = .string(button) }
        if let reply { object["reply"] = .string(reply) }
        return .object(object)
    }

    /// Reads one event, or returns `nil` and appends a diagnostic per problem, each with its path under `path`.
    ///
    /// Unknown members are ignored, so a reader keeps reading events of a newer device; the token is returned as
    /// written. Limits (identifier lengths, the token's shape) are the gateway's to add.
    public static func read(_ value: JSONValue, at path: JSONPath, diagnostics: inout [Diagnostic]) -> TapEvent? {
        guard let members = value.objectValue else {
            diagnostics.append(
                Diagnostic(
                    .error, .typeMismatch, at: path, "a tap event must be an object, not \(value.typeDescription)"))
            return nil
        }
        return read(members: members, at: path, diagnostics: &diagnostics)
    }

    /// Reads one event from its object's members (see ``read(_:at:diagnostics:)``).
    public static func read(
        members: [String: JSONValue], at path: JSONPath, diagnostics: inout [Diagnostic]
    ) -> TapEvent? {
        let before = WireObject.errors(in: diagnostics)
        let event = WireObject(members: members, path: path)
        let eventID = event.string("event_id", required: true, diagnostics: &diagnostics)
        let token = event.string("token", required: true, diagnostics: &diagnostics)
        let notification = event.string("notification", required: true, diagnostics: &diagnostics)
        let campaign = event.optionalString("campaign", diagnostics: &diagnostics)
        let variant = event.optionalString("variant", diagnostics: &diagnostics)
        let category = readCategory(event, &diagnostics)
        let (response, button) = readResponse(event, &diagnostics)
        let foreground = event.bool("foreground", diagnostics: &diagnostics)
        if members["foreground"] == nil { event.missing("foreground", "true or false", &diagnostics) }
        let latency = readLatency(event, &diagnostics)
        let reply = readReply(event, &diagnostics)
        let at = readTime(event, &diagnostics)
        guard WireObject.errors(in: diagnostics) == before, let eventID, let token, let notification, let category,
            let response, let foreground, let at
        else { return nil }
        return TapEvent(
            eventID: eventID, token: token, notificationID: notification, campaignID: campaign, variant: variant,
            category: category, response: response, button: button, foreground: foreground,
            latencyMilliseconds: latency, reply: reply, respondedAt: at)
    }

    /// `category`: required, a string that may be empty (a notification without a category).
    private static func readCategory(_ event: WireObject, _ diagnostics: inout [Diagnostic]) -> String? {
        guard let value = event.members["category"] else {
            event.missing("category", "the notification's category identifier", &diagnostics)
            return nil
        }
        guard let category = value.stringValue else {
            event.fail("category", .typeMismatch, "'category' must be a string", diagnostics: &diagnostics)
            return nil
        }
        return category
    }

    /// `response`, and `button`: required for a button response, refused for the others.
    private static func readResponse(
        _ event: WireObject, _ diagnostics: inout [Diagnostic]
    ) -> (Response?, String?) {
        guard let text = event.string("response", required: true, diagnostics: &diagnostics) else { return (nil, nil) }
        guard let response = Response(rawValue: text) else {
            event.fail(
                "response", .unknownValue, "'response' must be button, body or dismiss, not '\(text)'",
                diagnostics: &diagnostics)
            return (nil, nil)
        }
        if response == .button { return (response, event.string("button", required: true, diagnostics: &diagnostics)) }
        if let value = event.members["button"], value != .null {
            event.fail(
                "button", .inconsistentAction, "'button' is only for a response of button",
                hint: "leave it out for body taps and dismissals", diagnostics: &diagnostics)
        }
        return (response, nil)
    }

    /// `latency_ms`: a whole number ≥ 0, or `null`.
    private static func readLatency(_ event: WireObject, _ diagnostics: inout [Diagnostic]) -> Int64? {
        guard let value = event.members["latency_ms"], value != .null else { return nil }
        guard let number = value.integerValue, number >= 0 else {
            event.fail(
                "latency_ms", .typeMismatch, "'latency_ms' must be a whole number of milliseconds ≥ 0, or null",
                diagnostics: &diagnostics)
            return nil
        }
        return number
    }

    /// `reply`: a string (which may be empty: the user sent nothing), or `null`.
    private static func readReply(_ event: WireObject, _ diagnostics: inout [Diagnostic]) -> String? {
        guard let value = event.members["reply"], value != .null else { return nil }
        guard let reply = value.stringValue else {
            event.fail("reply", .typeMismatch, "'reply' must be a string", diagnostics: &diagnostics)
            return nil
        }
        return reply
    }

    /// `at`: required, an RFC 3339 time.
    private static func readTime(_ event: WireObject, _ diagnostics: inout [Diagnostic]) -> Date? {
        guard let text = event.string("at", required: true, diagnostics: &diagnostics) else { return nil }
        guard let at = RFC3339.date(text) else {
            event.fail(
                "at", .typeMismatch, "'at' is not an RFC 3339 time", hint: "e.g. 2026-12-01T10:45:00.250Z",
                diagnostics: &diagnostics)
            return nil
        }
        return at
    }
}
