#if !os(tvOS)
    import Foundation

    /// Downloads a notification's media: what ``PushbuttonNotificationService`` calls, shaped as
    /// `URLSession.data(from:)` with the limits an extension needs. ``URLSessionMediaDownloader`` is the real one;
    /// tests give another, or the real one pointed at a local server.
    public protocol MediaDownloading: Sendable {
        /// The body at `url`, or why not. Stops reading (and fails with ``MediaFailure/tooLarge(limit:)``) past
        /// `limit` bytes, so nothing larger is ever held; follows redirects only to `https:` unless `allowsHTTP`.
        /// Cancelling the calling task cancels the download.
        func data(from url: URL, limit: Int, allowsHTTP: Bool) async throws(MediaFailure) -> [UInt8]
    }
#endif
