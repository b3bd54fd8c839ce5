import Foundation
import Pushbutton

extension NotificationPreview {
    /// Sets ``mediaSource``: an `http(s):` URL as it is (the page then loads it); with `allowingLocalFiles`, a
    /// `file:` URL or a path of a readable file within iOS's size for the kind, embedded as a `data:` URI so the page
    /// stays self-contained. Anything else keeps the frame with the file's name. The console never reads local files.
    public mutating func embedMedia(allowingLocalFiles: Bool) {
        guard let media else { return }
        let url = media.url
        let lowered = url.lowercased()
        if lowered.hasPrefix("https://") || lowered.hasPrefix("http://") {
            mediaSource = url
            return
        }
        guard allowingLocalFiles else { return }
        let path = lowered.hasPrefix("file://") ? (URL(string: url)?.path ?? "") : url
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
            let size = attributes[.size] as? Int, size <= media.kind.maximumBytes,
            let data = FileManager.default.contents(atPath: path)
        else { return }
        mediaSource = "data:\(Self.mimeType(of: media, path: path));base64,\(data.base64EncodedString())"
    }

    /// The file's name, for the frame drawn instead of the media.
    public var mediaFileName: String? {
        guard let media else { return nil }
        let path = media.url.split(separator: "?", maxSplits: 1).first.map(String.init) ?? media.url
        let name = path.split(separator: "/").last.map(String.init) ?? path
        return name.isEmpty ? path : name
    }

    /// A MIME type from the file's extension, else the kind's most common one.
    static func mimeType(of media: PayloadMedia, path: String) -> String {
        switch (path as NSString).pathExtension.lowercased() {
        case "png": return "image/png"
        case "gif": return "image/gif"
        case "jpg", "jpeg": return "image/jpeg"
        case "mov": return "video/quicktime"
        case "mp3": return "audio/mpeg"
        case "m4a": return "audio/mp4"
        case "wav": return "audio/wav"
        default:
            switch media.kind {
            case .image: return "image/jpeg"
            case .gif: return "image/gif"
            case .video: return "video/mp4"
            case .audio: return "audio/mpeg"
            }
        }
    }
}
