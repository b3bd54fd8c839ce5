/// The `apns-push-type` header. Extensible, like ``InterruptionLevel``.
public struct PushType: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let alert = PushType(rawValue: "alert")
    public static let background = PushType(rawValue: "background")
    public static let location = PushType(rawValue: "location")
    public static let voip = PushType(rawValue: "voip")
    public static let complication = PushType(rawValue: "complication")
    public static let fileprovider = PushType(rawValue: "fileprovider")
    public static let mdm = PushType(rawValue: "mdm")
    public static let liveactivity = PushType(rawValue: "liveactivity")
    public static let pushtotalk = PushType(rawValue: "pushtotalk")
    public static let widgets = PushType(rawValue: "widgets")

    /// The push types APNs documents.
    public static let known: [PushType] = [
        .alert, .background, .location, .voip, .complication, .fileprovider, .mdm, .liveactivity, .pushtotalk,
        .widgets,
    ]

    /// The largest payload APNs accepts for this push type, in bytes: 5120 for VoIP, 4096 otherwise.
    public var maximumPayloadSize: Int { self == .voip ? 5120 : 4096 }

    public var description: String { rawValue }
}
