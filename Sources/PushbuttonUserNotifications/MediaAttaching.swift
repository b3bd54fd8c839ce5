#if !os(tvOS)
    import Foundation
    import Pushbutton

    #if canImport(UserNotifications)
        import UserNotifications
    #else
        import UserNotificationsStandIn
    #endif

    /// Downloads a payload's media and makes it an attachment: the URL's scheme first (no request for a refused
    /// one), the download within iOS's limit for the declared kind, the format from the bytes, then a temporary
    /// file with the format's extension and type hint.
    enum MediaAttaching {
        /// The attachment, or why there is none, with the report of it.
        static func attachment(
            for media: PayloadMedia, notification identifier: String, options: NotificationServiceOptions
        ) async -> (UNNotificationAttachment?, MediaReport) {
            var bytes = 0
            func report(_ outcome: Result<MediaFormat, MediaFailure>) -> MediaReport {
                MediaReport(notificationIdentifier: identifier, media: media, outcome: outcome, bytes: bytes)
            }
            do throws(MediaFailure) {
                let url = try allowedURL(media.url, allowsHTTP: options.allowsHTTPMedia)
                let data = try await options.downloader.data(
                    from: url, limit: media.kind.maximumBytes, allowsHTTP: options.allowsHTTPMedia)
                bytes = data.count
                let format = try format(of: data, declared: media.kind)
                if Task.isCancelled { throw .timedOut }
                let attachment = try write(data, format: format, into: options.mediaFolder)
                return (attachment, report(.success(format)))
            } catch {
                return (nil, report(.failure(error)))
            }
        }

        /// The URL when its scheme is `https:` (or `http:` when allowed).
        static func allowedURL(_ text: String, allowsHTTP: Bool) throws(MediaFailure) -> URL {
            guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), url.host != nil,
                scheme == "https" || (allowsHTTP && scheme == "http")
            else { throw .insecureURL(text) }
            return url
        }

        /// The format the bytes are, when it fits the declared kind and iOS's size for it.
        static func format(of data: [UInt8], declared: PayloadMedia.Kind) throws(MediaFailure) -> MediaFormat {
            guard let format = MediaFormat.sniff(data) else {
                throw .wrongType(declared: declared, found: "unrecognized")
            }
            guard format.fits(declared) else { throw .wrongType(declared: declared, found: format.rawValue) }
            guard data.count <= format.kind.maximumBytes else { throw .tooLarge(limit: format.kind.maximumBytes) }
            return format
        }

        /// Writes the bytes to a new file named for the format and attaches it.
        static func write(_ data: [UInt8], format: MediaFormat, into folder: URL) throws(MediaFailure)
            -> UNNotificationAttachment
        {
            let file = folder.appendingPathComponent(UUID().uuidString + "." + format.fileExtension)
            do {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                try Data(data).write(to: file, options: .atomic)
                return try UNNotificationAttachment(
                    identifier: "pushbutton.media", url: file,
                    options: [UNNotificationAttachmentOptionsTypeHintKey: format.typeIdentifier])
            } catch {
                try? FileManager.default.removeItem(at: file)
                throw .attachment(error.localizedDescription)
            }
        }
    }
#endif
