/// Reads any APNs payload into the typed model, reporting wrong types without losing anything:
/// a known key with a value of the wrong type is reported and kept, untouched, among the extra keys.
struct PayloadReader {
    var diagnostics: [Diagnostic] = []

    static let apsKeys = [
        "alert", "badge", "sound", "thread-id", "category", "content-available", "mutable-content",
        "target-content-id", "interruption-level", "relevance-score", "filter-criteria", "timestamp", "event",
        "content-state", "stale-date", "dismissal-date", "attributes-type", "attributes", "input-push-token",
        "input-push-channel", "content-changed",
    ]
    static let alertKeys = [
        "title", "subtitle", "body", "launch-image", "title-loc-key", "title-loc-args", "subtitle-loc-key",
        "subtitle-loc-args", "loc-key", "loc-args", "summary-arg", "summary-arg-count",
    ]

    mutating func readPayload(_ value: JSONValue) -> Payload? {
        guard var members = value.objectValue else {
            diagnostics.append(
                Diagnostic(
                    .error, .typeMismatch, at: .root, "a payload must be a JSON object, not \(value.typeDescription)"))
            return nil
        }
        var payload = Payload()
        if let aps = members.removeValue(forKey: "aps") {
            if let object = aps.objectValue {
                payload.aps = readAPS(object, at: .root.appending("aps"))
            } else {
                // Without an aps dictionary there is nothing typed to read into; refuse rather than guess.
                diagnostics.append(
                    Diagnostic(
                        .error, .typeMismatch, at: .root.appending("aps"),
                        "'aps' must be an object, not \(aps.typeDescription)"))
                return nil
            }
        } else {
            diagnostics.append(
                Diagnostic(
                    .error, .missingAPS, at: .root, "the payload has no 'aps' dictionary",
                    hint: "add \"aps\": {\"alert\": …, \"category\": …}"))
        }
        if let arguments = members.removeValue(forKey: Payload.actionArgumentsKey) {
            if let object = arguments.objectValue {
                payload.actionArguments = object
            } else {
                diagnostics.append(
                    Diagnostic(
                        .error, .malformedActionArguments, at: .root.appending(Payload.actionArgumentsKey),
                        "'action_args' must be an object of arguments, not \(arguments.typeDescription)",
                        hint: "write \"action_args\": {\"name\": value, …}"))
                members[Payload.actionArgumentsKey] = arguments
            }
        }
        if let actions = members.removeValue(forKey: Payload.actionsKey) {
            if let read = readActions(actions, at: .root.appending(Payload.actionsKey)) {
                payload.actions = read
            } else {
                members[Payload.actionsKey] = actions
            }
        }
        payload.custom = members
        return payload
    }

    private mutating func mismatch(_ path: JSONPath, _ expected: String, _ value: JSONValue) {
        diagnostics.append(
            Diagnostic(
                .error, .typeMismatch, at: path,
                "'\(path.components.last.map(String.init(describing:)) ?? "")' must be \(expected), not \(value.typeDescription)"
            ))
    }

    private mutating func readAPS(_ object: [String: JSONValue], at path: JSONPath) -> APS {
        var members = object
        var aps = APS()
        func take<T>(_ key: String, _ expected: String, _ convert: (JSONValue) -> T?) -> T? {
            guard let value = members[key] else { return nil }
            guard let converted = convert(value) else {
                mismatch(path.appending(key), expected, value)
                return nil
            }
            members.removeValue(forKey: key)
            return converted
        }
        if let alert = members["alert"] {
            if let text = alert.stringValue {
                aps.alert = .text(text)
                members.removeValue(forKey: "alert")
            } else if let dictionary = alert.objectValue {
                aps.alert = .content(readAlert(dictionary, at: path.appending("alert")))
                members.removeValue(forKey: "alert")
            } else {
                mismatch(path.appending("alert"), "a string or an object", alert)
            }
        }
        aps.badge = take("badge", "an integer") { $0.integerValue.flatMap { Int(exactly: $0) } }
        if let sound = members["sound"] {
            if let read = readSound(sound, at: path.appending("sound")) {
                aps.sound = read
                members.removeValue(forKey: "sound")
            }
        }
        aps.threadID = take("thread-id", "a string", \.stringValue)
        aps.category = take("category", "a string", \.stringValue)
        aps.contentAvailable = take("content-available", "the number 1", Self.flag) ?? false
        aps.mutableContent = take("mutable-content", "the number 1", Self.flag) ?? false
        aps.targetContentID = take("target-content-id", "a string", \.stringValue)
        aps.interruptionLevel = take("interruption-level", "a string") { $0.stringValue.map(InterruptionLevel.init) }
        aps.relevanceScore = take("relevance-score", "a number", \.doubleValue)
        aps.filterCriteria = take("filter-criteria", "a string", \.stringValue)
        aps.liveActivity.timestamp = take("timestamp", "an integer (epoch seconds)", \.integerValue)
        aps.liveActivity.event = take("event", "a string", \.stringValue)
        // `.map(JSONValue.object)`, not `x != nil ? $0 : nil`: JSONValue is ExpressibleByNilLiteral, so that `nil`
        // would be the JSON null, and a non-object would be read as null instead of reported.
        aps.liveActivity.contentState = take("content-state", "an object") { $0.objectValue.map(JSONValue.object) }
        aps.liveActivity.staleDate = take("stale-date", "an integer (epoch seconds)", \.integerValue)
        aps.liveActivity.dismissalDate = take("dismissal-date", "an integer (epoch seconds)", \.integerValue)
        aps.liveActivity.attributesType = take("attributes-type", "a string", \.stringValue)
        aps.liveActivity.attributes = take("attributes", "an object") { $0.objectValue.map(JSONValue.object) }
        // Documented keys the model does not type are kept as they are (in `extra`), with their type checked.
        if let value = members["input-push-token"], Self.flag(value) == nil {
            mismatch(path.appending("input-push-token"), "the number 1", value)
        }
        if let value = members["input-push-channel"], value.stringValue == nil {
            mismatch(path.appending("input-push-channel"), "a string (a broadcast channel id)", value)
        }
        if let value = members["content-changed"], value != .bool(true) {
            mismatch(path.appending("content-changed"), "true", value)
        }
        for key in members.keys.sorted() where !Self.apsKeys.contains(key) {
            diagnostics.append(
                Diagnostic(
                    .warning, .unknownKey, at: path.appending(key),
                    "'\(key)' is not an aps key; the system ignores it",
                    hint: Suggestion.didYouMean(key, among: Self.apsKeys) ?? "put app data next to 'aps', not inside it"
                ))
        }
        aps.extra = members
        return aps
    }

    /// APNs flags are the number 1 (0 means absent); `true`/`false` are refused by the type check.
    private static func flag(_ value: JSONValue) -> Bool? {
        guard let number = value.integerValue, number == 0 || number == 1 else { return nil }
        return number == 1
    }

    private mutating func readAlert(_ object: [String: JSONValue], at path: JSONPath) -> AlertContent {
        var members = object
        var alert = AlertContent()
        func string(_ key: String) -> String? {
            guard let value = members[key] else { return nil }
            guard let text = value.stringValue else {
                mismatch(path.appending(key), "a string", value)
                return nil
            }
            members.removeValue(forKey: key)
            return text
        }
        func strings(_ key: String) -> [String]? {
            guard let value = members[key] else { return nil }
            guard let array = value.arrayValue, array.allSatisfy({ $0.stringValue != nil }) else {
                mismatch(path.appending(key), "an array of strings", value)
                return nil
            }
            members.removeValue(forKey: key)
            return array.compactMap(\.stringValue)
        }
        alert.title = string("title")
        alert.subtitle = string("subtitle")
        alert.body = string("body")
        alert.launchImage = string("launch-image")
        alert.titleLocKey = string("title-loc-key")
        alert.titleLocArgs = strings("title-loc-args")
        alert.subtitleLocKey = string("subtitle-loc-key")
        alert.subtitleLocArgs = strings("subtitle-loc-args")
        alert.locKey = string("loc-key")
        alert.locArgs = strings("loc-args")
        if let value = members["summary-arg"], value.stringValue == nil {
            mismatch(path.appending("summary-arg"), "a string", value)
        }
        if let value = members["summary-arg-count"], (value.integerValue ?? -1) < 0 {
            mismatch(path.appending("summary-arg-count"), "a whole number", value)
        }
        for key in members.keys.sorted() where !Self.alertKeys.contains(key) {
            diagnostics.append(
                Diagnostic(
                    .warning, .unknownKey, at: path.appending(key),
                    "'\(key)' is not an alert key; the system ignores it",
                    hint: Suggestion.didYouMean(key, among: Self.alertKeys)))
        }
        alert.extra = members
        return alert
    }

    private mutating func readSound(_ value: JSONValue, at path: JSONPath) -> Sound? {
        if let name = value.stringValue { return .named(name) }
        guard let object = value.objectValue, let name = object["name"]?.stringValue,
            Set(object.keys).isSubset(of: ["name", "critical", "volume"])
        else {
            mismatch(path, "a sound name or {\"critical\": 1, \"name\": …, \"volume\": …}", value)
            return nil
        }
        let critical = object["critical"].map { Self.flag($0) }
        let volume = object["volume"].map(\.doubleValue)
        if critical == .some(nil) || volume == .some(nil) {
            mismatch(path, "a critical sound with 'critical' 0 or 1 and a numeric 'volume'", value)
            return nil
        }
        return .critical(name: name, volume: volume ?? nil, isCritical: (critical ?? false) ?? false)
    }

    // MARK: Per-button actions

    /// The per-button actions, or `nil` when the object has errors: then the caller keeps the raw value,
    /// so a payload is never changed by reading and writing it. Unknown keys are kept in `extra`.
    mutating func readActions(_ value: JSONValue, at path: JSONPath) -> PayloadActions? {
        let errorsBefore = diagnostics.filter { $0.severity == .error }.count
        guard let object = ObjectReader(value, at: path, what: "'pushbutton'", diagnostics: &diagnostics) else {
            return nil
        }
        let known = ["v", "buttons", "body", "dismiss", "define", "id", "campaign", "media"]
        object.reportUnknownKeys(known: known, in: "'pushbutton'", diagnostics: &diagnostics)
        var actions = PayloadActions()
        actions.extra = object.members.filter { !known.contains($0.key) }
        if let version = object.members["v"] {
            if version.integerValue == Int64(PayloadActions.currentVersion) {
                actions.version = PayloadActions.currentVersion
            } else {
                diagnostics.append(
                    Diagnostic(
                        .error, .unsupportedVersion, at: path.appending("v"),
                        "per-button actions version \(JSONWriterText.compact(version)) is not supported; this "
                            + "Pushbutton reads version \(PayloadActions.currentVersion)",
                        hint: "set \"v\": \(PayloadActions.currentVersion)"))
            }
        }
        if let buttons = object.members["buttons"],
            let reader = ObjectReader(
                buttons, at: path.appending("buttons"), what: "'buttons'", diagnostics: &diagnostics)
        {
            for (button, specs) in reader.members.sorted(by: { $0.key < $1.key }) {
                actions.buttons[button] = readSpecs(specs, at: reader.path.appending(button))
            }
        }
        if let body = object.members["body"] { actions.body = readSpecs(body, at: path.appending("body")) }
        if let dismiss = object.members["dismiss"] {
            actions.dismiss = readSpecs(dismiss, at: path.appending("dismiss"))
        }
        actions.notificationID = object.string("id", diagnostics: &diagnostics)
        actions.campaignID = object.string("campaign", diagnostics: &diagnostics)
        if let media = object.members["media"] { actions.media = readMedia(media, at: path.appending("media")) }
        for (index, element) in (object.array("define", diagnostics: &diagnostics) ?? []).enumerated() {
            if let button = readDynamicButton(element, at: path.appending("define").appending(index)) {
                actions.dynamicButtons.append(button)
            }
        }
        let errorsAfter = diagnostics.filter { $0.severity == .error }.count
        return errorsAfter == errorsBefore ? actions : nil
    }

    private mutating func readSpecs(_ value: JSONValue, at path: JSONPath) -> [ActionSpec] {
        guard let elements = value.arrayValue else {
            mismatch(path, "an array of actions", value)
            return []
        }
        var specs: [ActionSpec] = []
        for (index, element) in elements.enumerated() {
            let specPath = path.appending(index)
            guard let object = ObjectReader(element, at: specPath, what: "an action", diagnostics: &diagnostics) else {
                continue
            }
            object.reportUnknownKeys(known: ["action", "args"], in: "an action", diagnostics: &diagnostics)
            guard let name = object.string("action", required: true, diagnostics: &diagnostics) else { continue }
            var spec = ActionSpec(name)
            if let arguments = object.members["args"] {
                if let dictionary = arguments.objectValue {
                    spec.arguments = dictionary
                } else {
                    mismatch(specPath.appending("args"), "an object", arguments)
                }
            }
            specs.append(spec)
        }
        return specs
    }

    /// `{"url": …, "type": image|gif|video|audio}`; the URL's shape is the validator's to check.
    private mutating func readMedia(_ value: JSONValue, at path: JSONPath) -> PayloadMedia? {
        guard let object = ObjectReader(value, at: path, what: "'media'", diagnostics: &diagnostics) else {
            return nil
        }
        object.reportUnknownKeys(known: ["url", "type"], in: "'media'", diagnostics: &diagnostics)
        guard let url = object.string("url", required: true, diagnostics: &diagnostics),
            let type = object.string("type", required: true, diagnostics: &diagnostics)
        else { return nil }
        guard let kind = PayloadMedia.Kind(rawValue: type) else {
            diagnostics.append(
                Diagnostic(
                    .error, .unknownValue, at: path.appending("type"),
                    "'\(type)' is not a media type; iOS attaches an image, gif, video or audio",
                    hint: Suggestion.didYouMean(type, among: PayloadMedia.Kind.allCases.map(\.rawValue))))
            return nil
        }
        return PayloadMedia(url: url, kind: kind)
    }

    private mutating func readDynamicButton(_ value: JSONValue, at path: JSONPath) -> DynamicButton? {
        guard let object = ObjectReader(value, at: path, what: "a dynamic button", diagnostics: &diagnostics) else {
            return nil
        }
        object.reportUnknownKeys(known: ["id", "title", "options"], in: "a dynamic button", diagnostics: &diagnostics)
        guard let identifier = object.string("id", required: true, diagnostics: &diagnostics),
            let title = object.string("title", required: true, diagnostics: &diagnostics)
        else { return nil }
        var button = DynamicButton(identifier, title: title)
        for (index, name) in (object.strings("options", diagnostics: &diagnostics) ?? []).enumerated() {
            if let option = ActionOptions.names.first(where: { $0.name == name })?.option {
                button.options.insert(option)
            } else {
                diagnostics.append(
                    Diagnostic(
                        .error, .unknownOption, at: path.appending("options").appending(index),
                        "'\(name)' is not an action option",
                        hint: Suggestion.didYouMean(name, among: ActionOptions.names.map(\.name))))
            }
        }
        return button
    }
}
