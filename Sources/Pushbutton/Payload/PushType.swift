/// The `apns-push-type` header. Extensible, like ``InterruptionLevel``.
///
/// Each type Apple documents ("Sending notification requests to APNs") carries its rules: the suffix its
/// `apns-topic` ends in, the priorities it may be sent with and its payload size limit. ``PayloadValidator``,
/// the sender's request check and the mock APNs read them from here.
public struct PushType: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The header's value.
    public var rawValue: String
    /// The push type whose header value is `rawValue`.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Shows an alert, plays a sound or badges the icon. Topic: the bundle id.
    public static let alert = PushType(rawValue: "alert")
    /// Delivers content in the background (`content-available`), with priority 5 only. Topic: the bundle id.
    public static let background = PushType(rawValue: "background")
    /// Asks a Location Push Service Extension for the device's location; the topic ends in `.location-query`.
    public static let location = PushType(rawValue: "location")
    /// A VoIP call (PushKit); the topic ends in `.voip`. Payloads may be 5120 bytes.
    public static let voip = PushType(rawValue: "voip")
    /// Updates a watchOS complication; the topic ends in `.complication`.
    public static let complication = PushType(rawValue: "complication")
    /// Tells a File Provider extension to refresh; the topic ends in `.pushkit.fileprovider`.
    public static let fileprovider = PushType(rawValue: "fileprovider")
    /// Tells a managed device to contact its MDM server. The topic is the UID of the MDM push certificate's
    /// subject, not a bundle id, and the payload carries the device's `mdm` push magic.
    public static let mdm = PushType(rawValue: "mdm")
    /// Starts, updates or ends a Live Activity; the topic ends in `.push-type.liveactivity`.
    public static let liveactivity = PushType(rawValue: "liveactivity")
    /// A Push to Talk notification; the topic ends in `.voip-ptt`.
    public static let pushtotalk = PushType(rawValue: "pushtotalk")
    /// Reloads the app's widgets (`content-changed`); the topic ends in `.push-type.widgets`.
    public static let widgets = PushType(rawValue: "widgets")
    /// Reloads the app's controls (`content-changed`); the topic ends in `.push-type.controls`.
    public static let controls = PushType(rawValue: "controls")

    /// The push types APNs documents.
    public static let known: [PushType] = [
        .alert, .background, .location, .voip, .complication, .fileprovider, .mdm, .liveactivity, .pushtotalk,
        .widgets, .controls,
    ]

    /// Whether Apple documents this push type.
    public var isKnown: Bool { Self.known.contains(self) }

    /// The largest payload APNs accepts for this push type, in bytes: 5120 for VoIP, 4096 otherwise.
    public var maximumPayloadSize: Int { self == .voip ? 5120 : 4096 }

    /// What the `apns-topic` ends in for this push type (after the bundle id), or `nil` when the topic is the
    /// bundle id itself (alert, background) or not derived from one (mdm, and types Apple adds later).
    public var topicSuffix: String? {
        switch rawValue {
        case "location": return ".location-query"
        case "voip": return ".voip"
        case "complication": return ".complication"
        case "fileprovider": return ".pushkit.fileprovider"
        case "liveactivity": return ".push-type.liveactivity"
        case "pushtotalk": return ".voip-ptt"
        case "widgets": return ".push-type.widgets"
        case "controls": return ".push-type.controls"
        default: return nil
        }
    }

    /// The `apns-topic` for sending this push type to the app `bundleID`: the bundle id with the type's
    /// suffix (added once: a bundle id that already ends in it is left as it is).
    public func topic(forBundleID bundleID: String) -> String {
        guard let suffix = topicSuffix, !bundleID.hasSuffix(suffix) else { return bundleID }
        return bundleID + suffix
    }

    /// The push type whose topic suffix `topic` ends in, if any (`com.example.app.voip` → ``voip``).
    public static func suffixed(topic: String) -> PushType? {
        // No suffix ends in another (`.voip-ptt` does not end in `.voip`), so at most one matches.
        known.first { $0.topicSuffix.map(topic.hasSuffix) ?? false }
    }

    /// The `apns-priority` values APNs accepts with this push type: only 5 for background pushes ("Always use
    /// priority 5. Using priority 10 is an error"), 10, 5 and 1 otherwise.
    public var allowedPriorities: [Int] { self == .background ? [5] : [10, 5, 1] }

    /// Whether APNs accepts this push type only on connections authenticated with a provider token:
    /// location pushes (Apple: "supports only token-based authentication") and Live Activities.
    public var requiresTokenAuthentication: Bool { self == .location || self == .liveactivity }

    /// "an alert", "an mdm", "a voip": the type's name with its article, for messages.
    package var withArticle: String {
        let vowel = rawValue == "mdm" || (rawValue.first.map { "aeiou".contains($0) } ?? false)
        return (vowel ? "an " : "a ") + rawValue
    }

    /// The header's value.
    public var description: String { rawValue }
}
