/// The `apns-push-type` header. Extensible, like ``InterruptionLevel``.
public struct PushType: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The header's value.
    public var rawValue: String
    /// The push type whose header value is `rawValue`.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Shows an alert, plays a sound or badges the icon.
    public static let alert = PushType(rawValue: "alert")
    /// Delivers content in the background (`content-available`), with priority 5.
    public static let background = PushType(rawValue: "background")
    /// Asks a Location Push Service Extension for the device's location.
    public static let location = PushType(rawValue: "location")
    /// A VoIP call (PushKit); the topic ends in `.voip`.
    public static let voip = PushType(rawValue: "voip")
    /// Updates a watchOS complication; the topic ends in `.complication`.
    public static let complication = PushType(rawValue: "complication")
    /// Tells a File Provider extension to refresh; the topic ends in `.pushkit.fileprovider`.
    public static let fileprovider = PushType(rawValue: "fileprovider")
    /// Tells a managed device to contact its MDM server.
    public static let mdm = PushType(rawValue: "mdm")
    /// Updates a Live Activity; the topic ends in `.push-type.liveactivity`.
    public static let liveactivity = PushType(rawValue: "liveactivity")
    /// A Push to Talk notification; the topic ends in `.voip-ptt`.
    public static let pushtotalk = PushType(rawValue: "pushtotalk")
    /// Reloads the app's widgets; the topic ends in `.push-type.widgets`.
    public static let widgets = PushType(rawValue: "widgets")

    /// The push types APNs documents.
    public static let known: [PushType] = [
        .alert, .background, .location, .voip, .complication, .fileprovider, .mdm, .liveactivity, .pushtotalk,
        .widgets,
    ]

    /// The largest payload APNs accepts for this push type, in bytes: 5120 for VoIP, 4096 otherwise.
    public var maximumPayloadSize: Int { self == .voip ? 5120 : 4096 }

    /// The header's value.
    public var description: String { rawValue }
}
