import Foundation
import Pushbutton

/// IANA time zone names as devices register them and apps configure a default: checked against the system's
/// tz database (Foundation's `TimeZone(identifier:)`), so a typo is refused at once, not sent at UTC later.
enum TimeZoneName {
    /// The longest name kept (the database's longest is about 30 bytes).
    static let maximumBytes = 64

    /// Whether the tz database knows `name`.
    static func isKnown(_ name: String) -> Bool {
        name.utf8.count <= maximumBytes && TimeZone(identifier: name) != nil
    }

    /// The `422` diagnostic for a name the tz database does not know.
    static func unknown(_ name: String, at path: JSONPath) -> Diagnostic {
        Diagnostic(
            .error, .unknownValue, at: path, "'\(name.prefix(maximumBytes))' is not a time zone the tz database knows",
            hint: #"an IANA name such as "Europe/Paris" or "America/New_York" (TimeZone.current.identifier on iOS)"#)
    }
}
