import Foundation
import Pushbutton
import PushbuttonStore

/// An app's settings for when its notifications go out (issue 35), in its entry of the configuration.
extension AppConfiguration {
    /// The app entry's keys these settings take.
    static let sendingKeys = ["default_time_zone", "throttle_per_minute", "quiet_hours", "frequency_cap"]

    /// The keys of `frequency_cap`.
    static let frequencyCapKeys = ["max", "per_hours"]

    /// Reads `default_time_zone` (an IANA name the system's tz database knows) and `throttle_per_minute`.
    static func readSending(_ app: ConfigReader, diagnostics: inout [Diagnostic]) -> (String?, Int?, QuietHours?) {
        var zone = app.string("default_time_zone", diagnostics: &diagnostics)
        if let name = zone, !TimeZoneName.isKnown(name) {
            diagnostics.append(TimeZoneName.unknown(name, at: app.path.appending("default_time_zone")))
            zone = nil
        }
        let rate = app.integer("throttle_per_minute", in: 1...SendTiming.maximumRate, diagnostics: &diagnostics)
        let quiet = app.members["quiet_hours"].flatMap {
            QuietHours.read($0, at: app.path.appending("quiet_hours"), diagnostics: &diagnostics)
        }
        return (zone, rate, quiet)
    }

    /// Reads `frequency_cap` (`{"max": 3, "per_hours": 24}`: at most `max` pushes to a device in any
    /// `per_hours` hours), when the app entry has one.
    static func readFrequencyCap(_ app: ConfigReader, diagnostics: inout [Diagnostic]) -> FrequencyCap? {
        guard app.members["frequency_cap"] != nil,
            let reader = app.object("frequency_cap", what: "'frequency_cap'", diagnostics: &diagnostics)
        else { return nil }
        reader.unknownKeys(known: frequencyCapKeys, diagnostics: &diagnostics)
        let max = reader.integer("max", in: 1...10_000, diagnostics: &diagnostics)
        let hours = reader.integer("per_hours", in: 1...(24 * 366), diagnostics: &diagnostics)
        for (key, value) in [("max", max), ("per_hours", hours)] where value == nil && reader.members[key] == nil {
            diagnostics.append(
                Diagnostic(
                    .error, .missingField, at: reader.path.appending(key), "'frequency_cap' needs '\(key)'",
                    hint: #"for example "frequency_cap": {"max": 3, "per_hours": 24}"#))
        }
        guard let max, let hours else { return nil }
        return FrequencyCap(max: max, window: TimeInterval(hours) * 3600)
    }

    /// The app's default zone as a `TimeZone` (`nil`: UTC).
    var defaultZone: TimeZone? { defaultTimeZone.flatMap(TimeZone.init(identifier:)) }
}
