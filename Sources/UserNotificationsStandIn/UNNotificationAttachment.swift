import Foundation

/// Mirrors `UNNotificationAttachment`: a media file shown with a notification (developer.apple.com/documentation/
/// usernotifications/unnotificationattachment: iOS 10, macOS 10.14, watchOS 3, visionOS 1; not on tvOS).
///
/// Apple's initializer checks that the URL is a readable file URL; the system then checks the file's type and size
/// (images 10 MB, movies 50 MB, audio 5 MB) after the service extension hands the content back, and moves the file
/// into its attachment data store. The stand-in checks that the file exists and is no larger than 50 MB.
@available(iOS 10, macOS 10.14, watchOS 3, *)
@available(tvOS, unavailable)
open class UNNotificationAttachment: NSObject, @unchecked Sendable {
    /// The identifier given at creation (a unique one when that was empty).
    open private(set) var identifier: String
    /// The file's URL.
    open private(set) var url: URL
    /// The type hint as given (`UNNotificationAttachmentOptionsTypeHintKey`); the system derives it from the data.
    open private(set) var type: String

    /// Mirrors `init(identifier:url:options:) throws`.
    public convenience init(identifier: String, url URL: URL, options: [AnyHashable: Any]? = nil) throws {
        guard URL.isFileURL, FileManager.default.isReadableFile(atPath: URL.path) else {
            throw NSError(
                domain: "UNErrorDomain", code: 100, userInfo: [NSLocalizedDescriptionKey: "Invalid attachment file URL"]
            )
        }
        let size = (try? FileManager.default.attributesOfItem(atPath: URL.path)[.size] as? Int) ?? 0
        guard size <= 50_000_000 else {
            throw NSError(
                domain: "UNErrorDomain", code: 102,
                userInfo: [NSLocalizedDescriptionKey: "Invalid attachment file size"]
            )
        }
        let hint = options?[UNNotificationAttachmentOptionsTypeHintKey] as? String ?? ""
        self.init(standInIdentifier: identifier.isEmpty ? UUID().uuidString : identifier, url: URL, type: hint)
    }

    init(standInIdentifier identifier: String, url: URL, type: String) {
        self.identifier = identifier
        self.url = url
        self.type = type
        super.init()
    }
}

/// Mirrors `UNNotificationAttachmentOptionsTypeHintKey`: the file's type (a UTI) when its extension does not say.
@available(iOS 10, macOS 10.14, watchOS 3, *)
@available(tvOS, unavailable)
public let UNNotificationAttachmentOptionsTypeHintKey = "UNNotificationAttachmentOptionsTypeHintKey"

/// Mirrors `UNNotificationAttachmentOptionsThumbnailHiddenKey`.
@available(iOS 10, macOS 10.14, watchOS 3, *)
@available(tvOS, unavailable)
public let UNNotificationAttachmentOptionsThumbnailHiddenKey = "UNNotificationAttachmentOptionsThumbnailHiddenKey"
