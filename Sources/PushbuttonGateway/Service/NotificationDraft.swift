import Pushbutton
import PushbuttonAPNs
import PushbuttonStore

/// A notification request read from its JSON body: whom it goes to, the payload (given whole, or built from a
/// category, a title, a body, per-button actions and `action_args`), the APNs headers and template data.
///
/// Diagnostics name the request's own paths: a problem in a built payload's `aps.alert.title` is reported at
/// `title`, one inside a given payload at `payload.aps…`.
struct NotificationDraft: Sendable {
    var audience: Audience?
    /// `"to": {"segment": EXPR}`, read by ``SegmentExpression`` where saved segments can be looked up.
    var segment: JSONValue?
    var payload: JSONValue
    var pushType: PushType
    var priority: Int?
    var expiration: Int64?
    var collapseID: String?
    var data: [String: JSONValue]
    /// Whether the payload was given whole (paths inside it are prefixed with `payload`).
    var givenWhole: Bool
    /// `"localized"`: each language's `title`, `subtitle` and `body`, by ``LocaleIdentifier`` spelling.
    var localized: [String: [String: JSONValue]] = [:]

    static let headerKeys = ["push_type", "priority", "expiration", "collapse_id", "data"]
    static let builtKeys = [
        "category", "title", "subtitle", "body", "sound", "badge", "thread_id", "buttons", "tap", "action_args",
        "media",
    ]
    static let notificationKeys =
        ["to", "payload", "localized", "wait_seconds"] + headerKeys + builtKeys + SendTiming.keys
    static let campaignKeys = ["to", "payload", "localized"] + headerKeys + builtKeys + SendTiming.keys
    /// What a language of `"localized"` may give.
    static let localizedKeys = ["title", "subtitle", "body"]

    /// Reads a notification body (`campaign: false`, with `to`) or a campaign's first line (without).
    static func read(_ value: JSONValue, campaign: Bool, diagnostics: inout [Diagnostic]) -> NotificationDraft? {
        guard let object = value.objectValue else {
            diagnostics.append(
                Diagnostic(
                    .error, .typeMismatch, at: .root, "the request must be a JSON object, not \(value.typeDescription)")
            )
            return nil
        }
        let known = campaign ? campaignKeys : notificationKeys
        for key in object.keys.sorted() where !known.contains(key) {
            if ExperimentPlan.keys.contains(key) {
                diagnostics.append(
                    Diagnostic(
                        .error, .unknownKey, at: .root.appending(key),
                        campaign
                            ? "'\(key)' belongs to an experiment: give the campaign's 'variants'"
                            : "'\(key)' belongs to an experiment, which only a campaign can run",
                        hint: campaign
                            ? #""variants": [{"name": "A", "share": 50, …}, {"name": "B", "share": 50, …}]"#
                            : "send it as a campaign: POST /v1/apps/{app}/campaigns (its first line the experiment)"))
                continue
            }
            diagnostics.append(
                Diagnostic(
                    .error, .unknownKey, at: .root.appending(key),
                    "'\(key)' is not a field of a \(campaign ? "campaign" : "notification")",
                    hint: Suggestion.didYouMean(key, among: known) ?? "fields: \(known.joined(separator: ", "))"))
        }
        var audience: Audience?
        var segment: JSONValue?
        if let to = object["to"]?.objectValue, to.count == 1, let expression = to["segment"] {
            segment = expression
        } else if !campaign {
            audience = readAudience(object["to"], diagnostics: &diagnostics)
        } else if object["to"] != nil {
            diagnostics.append(
                Diagnostic(
                    .error, .typeMismatch, at: .root.appending("to"),
                    #"a campaign's 'to' is {"segment": EXPR}; its other recipients are the lines after the first"#))
        }
        let payload: JSONValue
        let givenWhole: Bool
        if let given = object["payload"] {
            if let built = builtKeys.first(where: { object[$0] != nil }) {
                diagnostics.append(
                    Diagnostic(
                        .error, .inconsistentAction, at: .root.appending(built),
                        "give either a whole 'payload' or '\(built)' and the other fields that build one, not both"))
            }
            payload = given
            givenWhole = true
        } else {
            guard object["category"] != nil || object["body"] != nil || object["title"] != nil else {
                diagnostics.append(
                    Diagnostic(
                        .error, .missingField, at: .root.appending("payload"),
                        "give a 'payload', or a 'category' with 'title' and 'body' (and optionally 'buttons', 'action_args')"
                    ))
                return nil
            }
            payload = build(object)
            givenWhole = false
        }
        let pushType = PushType(rawValue: object["push_type"]?.stringValue ?? "alert")
        if let value = object["push_type"], value.stringValue == nil {
            diagnostics.append(
                Diagnostic(.error, .typeMismatch, at: .root.appending("push_type"), "'push_type' must be a string"))
        }
        var priority: Int?
        if let value = object["priority"] {
            if let number = value.integerValue, [1, 5, 10].contains(number) {
                priority = Int(number)
            } else {
                diagnostics.append(
                    Diagnostic(
                        .error, .valueRange, at: .root.appending("priority"), "'priority' must be 10, 5 or 1",
                        hint: "10 delivers now, 5 saves power (required for background pushes)"))
            }
        }
        var expiration: Int64?
        if let value = object["expiration"] {
            if let number = value.integerValue, number >= 0 {
                expiration = number
            } else {
                diagnostics.append(
                    Diagnostic(
                        .error, .valueRange, at: .root.appending("expiration"),
                        "'expiration' must be epoch seconds (0: deliver once or never)"))
            }
        }
        var collapseID: String?
        if let value = object["collapse_id"] {
            if let text = value.stringValue, isCollapseID(text) {
                collapseID = text
            } else {
                diagnostics.append(
                    Diagnostic(
                        .error, .valueRange, at: .root.appending("collapse_id"),
                        "'collapse_id' must be a string of 1 to \(InputLimits.collapseIDBytes) bytes without "
                            + "control characters (CR, LF, NUL…)",
                        hint: "it is sent as the apns-collapse-id header, which cannot hold them"))
            }
        }
        var data: [String: JSONValue] = [:]
        if let value = object["data"] {
            if let members = value.objectValue {
                data = members
            } else {
                diagnostics.append(
                    Diagnostic(
                        .error, .typeMismatch, at: .root.appending("data"),
                        "'data' (the template's values) must be an object, not \(value.typeDescription)"))
            }
        }
        return NotificationDraft(
            audience: audience, segment: segment, payload: payload, pushType: pushType, priority: priority,
            expiration: expiration, collapseID: collapseID, data: data, givenWhole: givenWhole,
            localized: readLocalized(object["localized"], diagnostics: &diagnostics))
    }

    /// `"localized": {"fr": {"title": …, "body": …}, "de-CH": {…}}`: languages by identifier, each with text
    /// for some of `title`, `subtitle` and `body` (what it does not give is the default's).
    private static func readLocalized(_ value: JSONValue?, diagnostics: inout [Diagnostic])
        -> [String: [String: JSONValue]]
    {
        guard let value else { return [:] }
        let path = JSONPath.root.appending("localized")
        guard let languages = value.objectValue else {
            diagnostics.append(
                Diagnostic(
                    .error, .typeMismatch, at: path,
                    #"'localized' must be an object of languages: {"fr": {"title": …, "body": …}}"#))
            return [:]
        }
        var localized: [String: [String: JSONValue]] = [:]
        for (key, texts) in languages.sorted(by: { $0.key < $1.key }) {
            guard let identifier = LocaleIdentifier(key) else {
                diagnostics.append(
                    Diagnostic(
                        .error, .invalidLocale, at: path.appending(key),
                        "'\(key)' is not a language or locale identifier",
                        hint: "use identifiers such as fr, de-CH, pt-BR, zh-Hant"))
                continue
            }
            guard let fields = texts.objectValue, !fields.isEmpty else {
                diagnostics.append(
                    Diagnostic(
                        .error, .typeMismatch, at: path.appending(key),
                        "a language gives an object with 'title', 'subtitle' or 'body'"))
                continue
            }
            for (field, text) in fields.sorted(by: { $0.key < $1.key }) {
                if !localizedKeys.contains(field) {
                    diagnostics.append(
                        Diagnostic(
                            .error, .unknownKey, at: path.appending(key).appending(field),
                            "'\(field)' is not localized text", hint: "use title, subtitle and body"))
                } else if text.stringValue == nil {
                    diagnostics.append(
                        Diagnostic(
                            .error, .typeMismatch, at: path.appending(key).appending(field),
                            "'\(field)' must be a string, not \(text.typeDescription)"))
                }
            }
            if localized[identifier.description] != nil {
                diagnostics.append(
                    Diagnostic(
                        .error, .duplicateKey, at: path.appending(key),
                        "'\(key)' is the same language as another key (\(identifier.description))"))
            }
            localized[identifier.description] = fields
        }
        return localized
    }

    /// The payload with `language`'s text in place of the default's (`aps.alert`'s title, subtitle, body).
    func payload(in language: String) -> JSONValue {
        guard var payload = self.payload.objectValue, let texts = localized[language] else { return self.payload }
        var aps = payload["aps"]?.objectValue ?? [:]
        var alert: [String: JSONValue] = [:]
        if let given = aps["alert"] {
            if let object = given.objectValue {
                alert = object
            } else if given.stringValue != nil {
                alert["body"] = given
            }
        }
        alert.merge(texts) { $1 }
        aps["alert"] = .object(alert)
        payload["aps"] = .object(aps)
        return .object(payload)
    }

    /// A diagnostic's path in a language's payload, as a path in the request: its text at
    /// `localized.<language>.<field>`, anything else where the default's is.
    func localizedPath(_ path: JSONPath, language: String) -> JSONPath {
        let keys = path.components.compactMap { component -> String? in
            if case .key(let key) = component { return key }
            return nil
        }
        for field in Self.localizedKeys where keys.starts(with: ["aps", "alert", field]) {
            return JSONPath.root.appending("localized").appending(language).appending(field)
        }
        return requestPath(path)
    }

    /// Whether `text` can be sent as `apns-collapse-id`: 1 to 64 bytes, no control character (a header value
    /// cannot hold CR, LF or NUL: such an id was accepted, then failed at every send).
    static func isCollapseID(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.count <= InputLimits.collapseIDBytes && !InputLimits.hasControlCharacter(text)
    }

    private static func readAudience(_ value: JSONValue?, diagnostics: inout [Diagnostic]) -> Audience? {
        let path = JSONPath.root.appending("to")
        guard let object = value?.objectValue, object.count == 1, let (key, member) = object.first else {
            diagnostics.append(
                Diagnostic(
                    .error, .missingField, at: path,
                    "'to' must be an object with one of 'tokens', 'user', 'tag' or 'segment'",
                    hint: #"for example "to": {"tokens": ["<64 hex digits>"]} or "to": {"user": "u-42"}"#))
            return nil
        }
        switch key {
        case "tokens":
            guard let array = member.arrayValue, !array.isEmpty else {
                diagnostics.append(
                    Diagnostic(.error, .typeMismatch, at: path.appending(key), "'tokens' must be a non-empty array"))
                return nil
            }
            var tokens: [String] = []
            var refused = 0
            for (index, element) in array.enumerated() {
                // A list of a million bad tokens is not checked (nor answered) element by element.
                guard refused < InputLimits.diagnosticsPerAnswer - 1 else {
                    diagnostics.append(
                        Diagnostic(
                            .error, "invalid-token", at: path.appending(key),
                            "\(array.count - index) more token(s) not checked after \(refused) invalid ones"))
                    break
                }
                refused += 1
                guard let text = element.stringValue else {
                    diagnostics.append(
                        Diagnostic(
                            .error, "invalid-token", at: path.appending(key).appending(index),
                            "a device token is a string of hexadecimal digits, not \(element.typeDescription)",
                            hint: "send the token the app got from registerForRemoteNotifications, hex-encoded"))
                    continue
                }
                // The sender's own check (64 to 200 hex digits), so the gateway accepts exactly what it can send.
                do {
                    tokens.append(try DeviceToken(text).hex)
                    refused -= 1
                } catch {
                    diagnostics.append(
                        Diagnostic(
                            .error, "invalid-token", at: path.appending(key).appending(index), error.message,
                            hint: "send the token the app got from registerForRemoteNotifications, hex-encoded"))
                }
            }
            return .tokens(tokens)
        case "user", "tag":
            guard let text = member.stringValue, !text.isEmpty else {
                diagnostics.append(
                    Diagnostic(.error, .typeMismatch, at: path.appending(key), "'\(key)' must be a non-empty string"))
                return nil
            }
            let limit = key == "user" ? InputLimits.userIDBytes : InputLimits.tagBytes
            guard text.utf8.count <= limit else {
                diagnostics.append(
                    Diagnostic(
                        .error, .valueRange, at: path.appending(key),
                        "'\(key)' is longer than \(limit) bytes, so no device has it"))
                return nil
            }
            return key == "user" ? .user(text) : .tag(text)
        default:
            diagnostics.append(
                Diagnostic(
                    .error, .unknownKey, at: path.appending(key), "'\(key)' is not a kind of recipient",
                    hint: "use 'tokens', 'user', 'tag' or 'segment'"))
            return nil
        }
    }

    /// A payload from the short form's fields.
    private static func build(_ object: [String: JSONValue]) -> JSONValue {
        var alert: [String: JSONValue] = [:]
        for key in ["title", "subtitle", "body"] { if let value = object[key] { alert[key] = value } }
        var aps: [String: JSONValue] = [:]
        if !alert.isEmpty { aps["alert"] = .object(alert) }
        if let category = object["category"] { aps["category"] = category }
        if let sound = object["sound"] { aps["sound"] = sound }
        if let badge = object["badge"] { aps["badge"] = badge }
        if let thread = object["thread_id"] { aps["thread-id"] = thread }
        var payload: [String: JSONValue] = ["aps": .object(aps)]
        var actions: [String: JSONValue] = [:]
        if let buttons = object["buttons"] { actions["buttons"] = buttons }
        if let tap = object["tap"] { actions["body"] = tap }
        if let media = object["media"] {
            // The service extension that downloads it runs only for mutable content.
            actions["media"] = media
            aps["mutable-content"] = 1
            payload["aps"] = .object(aps)
        }
        if !actions.isEmpty {
            actions["v"] = .integer(Int64(PayloadActions.currentVersion))
            payload[Payload.actionsKey] = .object(actions)
        }
        if let arguments = object["action_args"] { payload[Payload.actionArgumentsKey] = arguments }
        return .object(payload)
    }

    /// A diagnostic's path in the payload, as a path in the request.
    func requestPath(_ path: JSONPath) -> JSONPath {
        if givenWhole { return JSONPath(components: [.key("payload")] + path.components) }
        let keys = path.components.map { component -> String? in
            if case .key(let key) = component { return key }
            return nil
        }
        func mapped(_ prefix: [String], to field: String) -> JSONPath? {
            guard keys.count >= prefix.count, Array(keys.prefix(prefix.count)) == prefix.map({ Optional($0) }) else {
                return nil
            }
            return JSONPath(components: [.key(field)] + path.components.dropFirst(prefix.count))
        }
        let table: [([String], String)] = [
            (["aps", "alert", "title"], "title"), (["aps", "alert", "subtitle"], "subtitle"),
            (["aps", "alert", "body"], "body"), (["aps", "category"], "category"), (["aps", "sound"], "sound"),
            (["aps", "badge"], "badge"), (["aps", "thread-id"], "thread_id"),
            ([Payload.actionsKey, "buttons"], "buttons"), ([Payload.actionsKey, "body"], "tap"),
            ([Payload.actionArgumentsKey], "action_args"), ([Payload.actionsKey, "media"], "media"),
        ]
        for (prefix, field) in table { if let path = mapped(prefix, to: field) { return path } }
        return .root
    }
}
