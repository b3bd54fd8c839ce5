/// The rules of a Live Activity push (`apns-push-type: liveactivity`), per Apple's "Starting and updating
/// Live Activities with ActivityKit push notifications": every push has a `timestamp` and an `event`; a start
/// names the attributes type and carries the attributes, the content state and an alert, and may ask for the
/// new activity's push token or channel; an update carries the content state; an end may carry the final
/// content state and a dismissal date.
struct LiveActivityValidator {
    private(set) var diagnostics: [Diagnostic] = []

    private static let aps = JSONPath.root.appending("aps")
    /// Epoch seconds past this (the year 5138) are milliseconds by mistake.
    static let largestSeconds: Int64 = 100_000_000_000

    /// Whether `diagnostic` is the reader's warning about `aps.alert.sound`, which a Live Activity's alert
    /// carries (Apple's examples put the sound inside the alert) where a notification's has it next to the alert.
    static func isAlertSound(_ diagnostic: Diagnostic) -> Bool {
        diagnostic.code == .unknownKey && diagnostic.path == Self.aps.appending("alert").appending("sound")
    }

    /// Every problem of `payload` as a Live Activity push.
    static func check(_ payload: Payload) -> [Diagnostic] {
        var validator = LiveActivityValidator()
        validator.run(payload.aps)
        return validator.diagnostics
    }

    private mutating func report(
        _ severity: Diagnostic.Severity, _ code: Diagnostic.Code, _ path: JSONPath, _ message: String,
        hint: String? = nil
    ) {
        diagnostics.append(Diagnostic(severity, code, at: path, message, hint: hint))
    }

    private mutating func run(_ aps: APS) {
        let live = aps.liveActivity
        if let timestamp = live.timestamp {
            checkDate(timestamp, "timestamp")
        } else {
            report(
                .error, .missingField, Self.aps,
                "a Live Activity push needs 'timestamp': the system ignores a push older than the last update",
                hint: "add \"timestamp\": <the time the content was made, in epoch seconds>")
        }
        if let stale = live.staleDate {
            checkDate(stale, "stale-date")
            if let timestamp = live.timestamp, stale <= timestamp, stale > 0 {
                report(
                    .warning, .valueRange, Self.aps.appending("stale-date"),
                    "'stale-date' (\(stale)) is not after 'timestamp' (\(timestamp)): the activity shows as stale at once",
                    hint: "set it to when the content stops being current")
            }
        }
        // A dismissal date in the past (0 included) removes the activity at once, as Apple documents.
        if let dismissal = live.dismissalDate, dismissal != 0 { checkDate(dismissal, "dismissal-date") }
        if let alert = aps.alert, Self.showsNothing(alert) {
            report(
                .warning, .missingAlert, Self.aps.appending("alert"),
                "the Live Activity's alert has no title, body or sound: it alerts with nothing, which ActivityKit "
                    + "leaves undefined",
                hint: "give it a \"title\" and a \"body\", or leave the alert out of an update")
        }
        if case .content(let alert) = aps.alert, let sound = alert.extra["sound"], sound.stringValue == nil {
            report(
                .error, .typeMismatch, Self.aps.appending("alert").appending("sound"),
                "a Live Activity alert's 'sound' is the name of a sound file, not \(sound.typeDescription)",
                hint: "write \"sound\": \"chime.aiff\", or \"default\"")
        }
        guard let name = live.event else {
            report(
                .error, .missingField, Self.aps, "a Live Activity push needs 'event'",
                hint: "add \"event\": \"start\", \"update\" or \"end\"")
            return
        }
        let event = LiveActivityEvent(rawValue: name)
        guard LiveActivityEvent.known.contains(event) else {
            let names = LiveActivityEvent.known.map(\.rawValue)
            report(
                .error, .unknownValue, Self.aps.appending("event"), "'\(name)' is not a Live Activity event",
                hint: Suggestion.didYouMean(name, among: names) ?? "use start, update or end")
            return
        }
        if live.contentState == nil {
            if event == .end {
                report(
                    .warning, .missingField, Self.aps,
                    "ending a Live Activity without 'content-state' leaves its last content on the Lock Screen",
                    hint: "add the final \"content-state\": {…}")
            } else {
                report(
                    .error, .missingField, Self.aps,
                    "a Live Activity \(event) needs 'content-state': the ContentState the widget decodes",
                    hint: "add \"content-state\": {…} with the fields of the activity's ContentState")
            }
        }
        if event == .start {
            checkStart(aps)
        } else {
            let startOnly: [(String, Bool)] = [
                ("attributes-type", live.attributesType != nil), ("attributes", live.attributes != nil),
                ("input-push-token", aps.inputPushToken), ("input-push-channel", aps.inputPushChannel != nil),
            ]
            for (key, present) in startOnly where present {
                report(
                    .warning, .liveActivityEvent, Self.aps.appending(key),
                    "only a start uses '\(key)'; an \(event) ignores it", hint: "remove it")
            }
        }
        if event != .end && live.dismissalDate != nil {
            report(
                .warning, .liveActivityEvent, Self.aps.appending("dismissal-date"),
                "only an end uses 'dismissal-date'; \(event == .start ? "a" : "an") \(event) ignores it",
                hint: "send it with \"event\": \"end\"")
        }
    }

    private mutating func checkStart(_ aps: APS) {
        let live = aps.liveActivity
        switch live.attributesType {
        case nil:
            report(
                .error, .missingField, Self.aps,
                "starting a Live Activity needs 'attributes-type': the name of its ActivityAttributes type",
                hint: "add \"attributes-type\": \"<the Swift type's name>\"")
        case .some(let name) where name.isEmpty:
            report(
                .error, .missingField, Self.aps.appending("attributes-type"), "'attributes-type' is empty",
                hint: "use the name of the activity's ActivityAttributes type")
        default:
            break
        }
        if live.attributes == nil {
            report(
                .error, .missingField, Self.aps,
                "starting a Live Activity needs 'attributes': the static values of its ActivityAttributes",
                hint: "add \"attributes\": {…}, {} when the type has none")
        }
        if aps.alert == nil {
            report(
                .error, .missingAlert, Self.aps, "starting a Live Activity needs an alert",
                hint: "add \"alert\": {\"title\": …, \"body\": …}")
        }
        if aps.inputPushToken && aps.inputPushChannel != nil {
            report(
                .error, .liveActivityEvent, Self.aps.appending("input-push-channel"),
                "a start asks for a push token ('input-push-token') and a channel ('input-push-channel'); "
                    + "an activity is updated through one of them, not both",
                hint: "keep input-push-token for updates to this device, or input-push-channel for broadcasts")
        }
        if let channel = aps.inputPushChannel, channel.isEmpty {
            report(
                .error, .missingField, Self.aps.appending("input-push-channel"), "'input-push-channel' is empty",
                hint: "use the channel id APNs gave when the channel was created")
        }
    }

    /// Whether an alert has nothing to show or play.
    private static func showsNothing(_ alert: Alert) -> Bool {
        switch alert {
        case .text(let text): return text.isEmpty
        case .content(let content):
            return content.title == nil && content.body == nil && content.titleLocKey == nil && content.locKey == nil
                && content.extra["sound"] == nil
        }
    }

    private mutating func checkDate(_ seconds: Int64, _ key: String) {
        if seconds <= 0 {
            report(
                .error, .valueRange, Self.aps.appending(key), "'\(key)' is \(seconds); it is a time in epoch seconds",
                hint: "use the seconds since 1970")
        } else if seconds >= Self.largestSeconds {
            report(
                .error, .valueRange, Self.aps.appending(key),
                "'\(key)' (\(seconds)) looks like milliseconds; APNs reads epoch seconds",
                hint: "divide it by 1000")
        }
    }
}
