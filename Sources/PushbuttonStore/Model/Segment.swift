import Foundation

/// Which of an app's active devices a campaign or a count reaches (`"to": {"segment": …}`): a tree of `and`,
/// `or` and `not` over leaves the store evaluates in SQL (``SegmentSQL``), never by reading the devices.
public indirect enum Segment: Sendable, Hashable {
    /// Every one of the parts (an empty `and` is every device).
    case and([Segment])
    /// Any one of the parts (an empty `or` is no device).
    case or([Segment])
    /// Not the part.
    case not(Segment)
    /// Devices with the tag.
    case tag(String)
    /// The user's devices.
    case user(String)
    /// Devices whose registered locale is this language or one of its regional forms (`fr` matches `fr-CA`
    /// and `fr_CA`; `fr-CA` matches `fr-CA` and `fr_CA`, not `fr`). The identifier is lowercase language,
    /// optional script or region as registered.
    case locale(String)
    /// Devices whose registered app version compares so with `version` (by ``AppVersionNumber``).
    case appVersion(VersionComparison, version: Int64)
    /// Devices registered with this IANA time zone (`Europe/Paris`); a device without a registered zone is not
    /// matched (the app's `default_time_zone` is not assumed).
    case timeZone(String)
    /// Devices registered, or that reported a tap, in the last `days` days.
    case lastSeenDays(Int)
    /// Devices that used a button in the last `withinDays` days, of a notification of `category` when given.
    case tapped(category: String?, withinDays: Int)

    /// How an `app_version` leaf compares the device's version with its own.
    public enum VersionComparison: String, Sendable, Hashable, CaseIterable {
        case equal = "="
        case notEqual = "!="
        case less = "<"
        case lessOrEqual = "<="
        case greater = ">"
        case greaterOrEqual = ">="
    }
}
