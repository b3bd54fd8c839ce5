/// The rules of each `apns-push-type` that are not about alerts: the priorities it allows, the topic it goes
/// to, and what its payload must hold (widgets and controls: `content-changed`; mdm: the push magic; Live
/// Activities: see ``LiveActivityValidator``). ``PayloadValidator`` runs them after its alert and background
/// rules.
struct PushTypeRules {
    let context: PayloadValidator.Context
    private(set) var diagnostics: [Diagnostic] = []

    private static let aps = JSONPath.root.appending("aps")

    /// Every problem of `payload` for the push type, priority and topic of `context`.
    static func check(_ payload: Payload, context: PayloadValidator.Context) -> [Diagnostic] {
        var rules = PushTypeRules(context: context)
        rules.checkPriority(payload)
        rules.checkTopic()
        rules.checkContent(payload)
        if context.pushType == .liveactivity {
            rules.diagnostics += LiveActivityValidator.check(payload)
        }
        return rules.diagnostics
    }

    private init(context: PayloadValidator.Context) { self.context = context }

    private mutating func report(
        _ severity: Diagnostic.Severity, _ code: Diagnostic.Code, _ path: JSONPath, _ message: String,
        hint: String? = nil
    ) {
        diagnostics.append(Diagnostic(severity, code, at: path, message, hint: hint))
    }

    // MARK: Priority

    private mutating func checkPriority(_ payload: Payload) {
        guard let priority = context.priority else { return }
        let type = context.pushType
        // Compared one by one: an array literal here is allocated on every payload.
        guard priority == 10 || priority == 5 || priority == 1 else {
            report(
                .error, .priorityNotAllowed, .root,
                "apns-priority \(priority) is not a priority APNs knows; it answers 400 BadPriority",
                hint: "use 10 (deliver now), 5 (when the device's power allows) or 1 (never wake the device)")
            return
        }
        // Only background pushes narrow 10, 5, 1 (see `allowedPriorities`), checked without building the array.
        guard type.isKnown, type == .background && priority != 5 else {
            if priority == 1 && (type == .liveactivity || type == .location) {
                report(
                    .note, .priorityNotAllowed, .root,
                    "Apple documents priorities 10 and 5 for \(type) pushes; with 1 the device may get it late or never",
                    hint: "use 10 for an update that must show now, 5 otherwise")
            }
            return
        }
        // A wake-only payload at priority 10 is the validator's own background-priority error already.
        let visible = payload.aps.hasAlert || payload.aps.hasSound || payload.aps.badge != nil
        if priority == 10 && payload.aps.contentAvailable && !visible { return }
        report(
            .error, .priorityNotAllowed, .root,
            "\(type.withArticle) push is sent with apns-priority \(priority); APNs accepts only "
                + type.allowedPriorities.map(String.init).joined(separator: ", ") + " and answers 400 BadPriority",
            hint: "send it with apns-priority \(type.allowedPriorities[0])")
    }

    // MARK: Topic

    private mutating func checkTopic() {
        guard let topic = context.topic else { return }
        let type = context.pushType
        guard !topic.isEmpty else {
            report(
                .error, .topicMismatch, .root, "the apns-topic is empty; APNs answers 400 MissingTopic",
                hint: "set it to the app's bundle id")
            return
        }
        guard type.isKnown else { return }
        let other = PushType.suffixed(topic: topic)
        let bundleID = other.flatMap(\.topicSuffix).map { String(topic.dropLast($0.count)) } ?? topic
        if let suffix = type.topicSuffix {
            guard !topic.hasSuffix(suffix) else { return }
            report(
                .error, .topicMismatch, .root,
                "\(type.withArticle) push goes to the topic '<bundle id>\(suffix)', not '\(topic)'; APNs answers 400 "
                    + "DeviceTokenNotForTopic", hint: "send it to '\(type.topic(forBundleID: bundleID))'")
        } else if let other {
            report(
                .error, .topicMismatch, .root,
                "'\(topic)' is the topic of \(other) pushes, not of \(type) pushes; APNs answers 400 "
                    + "DeviceTokenNotForTopic",
                hint: type == .mdm
                    ? "use the UID of the MDM push certificate's subject" : "send it to the bundle id '\(bundleID)'")
        }
    }

    // MARK: Content

    private mutating func checkContent(_ payload: Payload) {
        let type = context.pushType
        // Read in place: `let aps = payload.aps` would copy every member of the aps dictionary.
        let visible = payload.aps.hasAlert || payload.aps.hasSound || payload.aps.badge != nil
        switch type {
        case .widgets, .controls:
            if !payload.aps.contentChanged {
                report(
                    .error, .missingField, Self.aps, "\(type.withArticle) push needs \"content-changed\": true",
                    hint: "write {\"aps\": {\"content-changed\": true}}: WidgetKit then reloads the app's \(type)")
            }
            if visible {
                report(
                    .warning, .pushTypeMismatch, Self.aps,
                    "\(type.withArticle) push shows nothing: its alert, sound and badge are ignored",
                    hint: "send what people should see as an alert push")
            }
        case .mdm:
            checkMDM(payload, visible: visible)
        default:
            // Without extra keys there is no `content-changed` (and the getter would be called on a copy of the aps).
            if !payload.aps.extra.isEmpty && payload.aps.contentChanged {
                report(
                    .warning, .pushTypeMismatch, Self.aps.appending("content-changed"),
                    "'content-changed' only reloads widgets and controls; \(type.withArticle) push ignores it",
                    hint: "send it with push type widgets or controls, to '<bundle id>.push-type.widgets'")
            }
        }
        if type != .liveactivity && !Self.liveActivityKeys(payload).isEmpty {
            report(
                .warning, .pushTypeMismatch, Self.aps,
                "the payload has Live Activity keys (\(Self.liveActivityKeys(payload).joined(separator: ", "))), "
                    + "which only a liveactivity push delivers to the activity",
                hint: "send it with push type liveactivity, to '<bundle id>.push-type.liveactivity'")
        }
        if type.isKnown && type != .alert && type != .background && payload.aps.category != nil {
            report(
                .warning, .pushTypeMismatch, Self.aps.appending("category"),
                "buttons show only on alert pushes: \(type.withArticle) push ignores 'category'",
                hint: "send the buttons in an alert push")
        }
    }

    private mutating func checkMDM(_ payload: Payload, visible: Bool) {
        let path = JSONPath.root.appending("mdm")
        switch payload.custom["mdm"] {
        case nil:
            report(
                .error, .missingField, path, "an MDM push needs the device's push magic in a top-level \"mdm\" string",
                hint: "send {\"mdm\": \"<the PushMagic of the device's TokenUpdate>\"}")
        case .some(.string(let magic)) where magic.isEmpty:
            report(.error, .missingField, path, "the MDM push magic is empty", hint: "use the device's PushMagic")
        case .some(.string):
            break
        case .some(let value):
            report(.error, .typeMismatch, path, "'mdm' must be a string (the push magic), not \(value.typeDescription)")
        }
        if visible {
            report(
                .warning, .pushTypeMismatch, Self.aps,
                "an MDM push shows nothing: the device only contacts its MDM server",
                hint: "leave 'aps' out of MDM pushes")
        }
    }

    /// The Live Activity keys the payload's `aps` holds, by name.
    private static func liveActivityKeys(_ payload: Payload) -> [String] {
        // Read in place (passing `payload.aps` would copy it, retaining each member); the two extra keys are looked up (hashed)
        // only when there are extra keys.
        var keys: [String] = []
        if payload.aps.liveActivity.event != nil { keys.append("event") }
        if payload.aps.liveActivity.contentState != nil { keys.append("content-state") }
        if payload.aps.liveActivity.attributesType != nil { keys.append("attributes-type") }
        if payload.aps.liveActivity.attributes != nil { keys.append("attributes") }
        if payload.aps.liveActivity.dismissalDate != nil { keys.append("dismissal-date") }
        if payload.aps.liveActivity.staleDate != nil { keys.append("stale-date") }
        guard !payload.aps.extra.isEmpty else { return keys }
        if payload.aps.inputPushToken { keys.append("input-push-token") }
        if payload.aps.inputPushChannel != nil { keys.append("input-push-channel") }
        return keys
    }
}
