/// Media shown beside a notification's text and buttons, under `pushbutton.media`:
///
/// ```json
/// "pushbutton": {"media": {"url": "https://cdn.example.com/sale.jpg", "type": "image"}}
/// ```
///
/// The app's Notification Service Extension downloads it (it runs only for `mutable-content: 1`) and attaches it
/// as a `UNNotificationAttachment`; the buttons are shown with or without it.
public struct PayloadMedia: Sendable, Hashable {
    /// What the media is, which fixes the file types and the size iOS accepts for it.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// A still image: JPEG or PNG.
        case image
        /// An animated GIF (an image attachment for iOS).
        case gif
        /// A movie: MPEG, MPEG-2, MPEG-4 or AVI.
        case video
        /// A sound: AIFF, WAVE, MP3 or MPEG-4 audio.
        case audio

        /// The largest attachment iOS accepts for the kind (`UNNotificationAttachment`'s supported file types:
        /// images 10 MB, movies 50 MB, audio 5 MB).
        public var maximumBytes: Int {
            switch self {
            case .image, .gif: return 10_000_000
            case .video: return 50_000_000
            case .audio: return 5_000_000
            }
        }

        /// The kind a URL's file extension suggests (`photo.JPG` → image), `nil` when it suggests none.
        public static func inferred(fromURL url: String) -> Kind? {
            let path = url.split(separator: "?", maxSplits: 1).first.map(String.init) ?? url
            guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return nil }
            switch path[path.index(after: dot)...].lowercased() {
            case "jpg", "jpeg", "png": return .image
            case "gif": return .gif
            case "mp4", "m4v", "mov", "mpg", "mpeg", "avi": return .video
            case "mp3", "m4a", "wav", "aif", "aiff": return .audio
            default: return nil
            }
        }
    }

    /// Where the extension downloads it from (`https:`; plain `http:` only where the app allows it).
    public var url: String
    /// What it is.
    public var kind: Kind

    /// Media of `kind` at `url`.
    public init(url: String, kind: Kind) {
        self.url = url
        self.kind = kind
    }

    /// `{"type": …, "url": …}`.
    public var jsonValue: JSONValue { .object(["type": .string(kind.rawValue), "url": .string(url)]) }
}
