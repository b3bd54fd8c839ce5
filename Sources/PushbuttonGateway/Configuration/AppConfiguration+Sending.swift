import Foundation
import Pushbutton

/// An app's settings for when its notifications go out (issue 35), in its entry of the configuration.
extension AppConfiguration {
    /// The app entry's keys these settings take.
    static let sendingKeys = ["default_time_zone", "throttle_per_minute", "quiet_hours"]

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

    /// The app's default zone as a `TimeZone` (`nil`: UTC).
    var defaultZone: TimeZone? { defaultTimeZone.flatMap(TimeZone.init(identifier:)) }
}
