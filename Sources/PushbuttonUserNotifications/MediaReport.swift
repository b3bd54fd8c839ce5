#if !os(tvOS)
    import Pushbutton

    /// What happened to one notification's media: attached (as which format, how many bytes) or not, and why.
    public struct MediaReport: Sendable, Hashable {
        /// The notification request's identifier.
        public var notificationIdentifier: String
        /// The payload's media.
        public var media: PayloadMedia
        /// The format attached, or why nothing was.
        public var outcome: Result<MediaFormat, MediaFailure>
        /// The bytes downloaded (0 when nothing was kept).
        public var bytes: Int

        /// A report of `outcome` for the notification's `media`.
        public init(
            notificationIdentifier: String, media: PayloadMedia, outcome: Result<MediaFormat, MediaFailure>,
            bytes: Int = 0
        ) {
            self.notificationIdentifier = notificationIdentifier
            self.media = media
            self.outcome = outcome
            self.bytes = bytes
        }
    }
#endif
