#if !os(tvOS)
    import Foundation
    import PushbuttonReceiver

    /// What ``PushbuttonNotificationService`` does beside registering dynamic buttons: download and attach the
    /// payload's media (`pushbutton.media`), and, when the app opts in, record a display receipt.
    public struct NotificationServiceOptions: Sendable {
        /// Whether `pushbutton.media` is downloaded and attached (on by default).
        public var downloadsMedia: Bool
        /// Whether media may come over plain `http:` (off: `https:` only, as App Transport Security wants).
        public var allowsHTTPMedia: Bool
        /// What downloads the media.
        public var downloader: any MediaDownloading
        /// Where the downloaded file is written before iOS moves it into its attachment store.
        public var mediaFolder: URL
        /// Where display receipts go; `nil` (the default) records none. Receipts carry no content of the
        /// notification: its gateway id, campaign and variant, the device token and the time.
        public var receipts: (any DisplayReceiptRecorder)?
        /// Called with what happened to each notification's media, and why it was not attached when it was not.
        public var onMedia: (@Sendable (MediaReport) -> Void)?

        /// Options with media on (https only), no receipts.
        public init(
            downloadsMedia: Bool = true, allowsHTTPMedia: Bool = false,
            downloader: any MediaDownloading = URLSessionMediaDownloader(),
            mediaFolder: URL = FileManager.default.temporaryDirectory.appendingPathComponent(
                "pushbutton-media", isDirectory: true),
            receipts: (any DisplayReceiptRecorder)? = nil, onMedia: (@Sendable (MediaReport) -> Void)? = nil
        ) {
            self.downloadsMedia = downloadsMedia
            self.allowsHTTPMedia = allowsHTTPMedia
            self.downloader = downloader
            self.mediaFolder = mediaFolder
            self.receipts = receipts
            self.onMedia = onMedia
        }
    }
#endif
