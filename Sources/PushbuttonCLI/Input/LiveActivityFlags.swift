import Foundation
import Pushbutton

/// The flags that build a Live Activity push (`--event`, `--content-state`, …) and a widgets or controls
/// reload (`--content-changed`), shared by `pushbutton payload` and `pushbutton send` through ``PayloadFlags``.
enum LiveActivityFlags {
    /// Epoch seconds a date option accepts: 0 to the last second of the year 9999.
    static let seconds: ClosedRange<Int> = 0...253_402_300_799

    static let event = Option<LiveActivityEvent>(
        "--event", value: "EVENT", help: "A Live Activity's event: start, update or end."
    ) { text, option throws(UsageError) in
        let event = LiveActivityEvent(rawValue: text)
        guard LiveActivityEvent.known.contains(event) else {
            let names = LiveActivityEvent.known.map(\.rawValue)
            throw UsageError(
                "\(option) '\(text)' is not a Live Activity event; "
                    + (Suggestion.didYouMean(text, among: names) ?? "use start, update or end"))
        }
        return event
    }
    static let timestamp = Option<Int64>(
        "--timestamp", value: "SECONDS", help: "When the content was made, in epoch seconds (default now)."
    ) { text, option throws(UsageError) in
        Int64(try OptionValue.integer(text, option: option, in: seconds))
    }
    static let contentState = Option<JSONValue>(
        "--content-state", value: "JSON", help: "The Live Activity's content state (a JSON object)."
    ) { text, option throws(UsageError) in try object(text, option) }
    static let attributesType = Option<String>(
        "--attributes-type", value: "NAME", help: "The ActivityAttributes type a start creates.")
    static let attributes = Option<JSONValue>(
        "--attributes", value: "JSON", help: "The attributes a start creates the activity with (a JSON object)."
    ) { text, option throws(UsageError) in try object(text, option) }
    static let staleDate = Option<Int64>(
        "--stale-date", value: "SECONDS", help: "When the content goes stale, in epoch seconds."
    ) { text, option throws(UsageError) in Int64(try OptionValue.integer(text, option: option, in: seconds)) }
    static let dismissalDate = Option<Int64>(
        "--dismissal-date", value: "SECONDS", help: "When an ended activity is removed, in epoch seconds."
    ) { text, option throws(UsageError) in Int64(try OptionValue.integer(text, option: option, in: seconds)) }
    static let inputPushChannel = Option<String>(
        "--input-push-channel", value: "ID", help: "The broadcast channel a started activity subscribes to.")
    static let inputPushToken = Flag(
        "--input-push-token", help: "Ask for a started activity's own push token (input-push-token: 1).")
    static let contentChanged = Flag(
        "--content-changed", help: "Set content-changed: true (a widgets or controls push).")

    static let options: [any OptionDeclaration] = [
        event, timestamp, contentState, attributesType, attributes, staleDate, dismissalDate, inputPushChannel,
    ]
    static let flags = [inputPushToken, contentChanged]

    /// Sets the Live Activity keys given on `payload`; with `--event`, a missing `--timestamp` is `now`.
    static func apply(_ arguments: ParsedArguments, to payload: inout Payload, now: Date = Date()) throws(UsageError) {
        var live = payload.aps.liveActivity
        let event = try arguments[Self.event]
        live.event = event?.rawValue
        live.timestamp = try arguments[Self.timestamp]
        if event != nil && live.timestamp == nil { live.timestamp = Int64(now.timeIntervalSince1970.rounded(.down)) }
        live.contentState = try arguments[Self.contentState]
        live.attributesType = try arguments[Self.attributesType]
        live.attributes = try arguments[Self.attributes]
        live.staleDate = try arguments[Self.staleDate]
        live.dismissalDate = try arguments[Self.dismissalDate]
        payload.aps.liveActivity = live
        payload.aps.inputPushChannel = try arguments[Self.inputPushChannel]
        if arguments[Self.inputPushToken] { payload.aps.inputPushToken = true }
        if arguments[Self.contentChanged] { payload.aps.contentChanged = true }
    }

    private static func object(_ text: String, _ option: String) throws(UsageError) -> JSONValue {
        let value: JSONValue
        do {
            value = try JSONParser.parse(text)
        } catch {
            throw UsageError("\(option): not JSON (\(error.message))")
        }
        guard value.objectValue != nil else {
            throw UsageError("\(option) must be a JSON object, not \(value.typeDescription)")
        }
        return value
    }
}
