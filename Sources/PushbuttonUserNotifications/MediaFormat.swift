#if !os(tvOS)
    import Pushbutton

    /// A file format iOS attaches to a notification, recognized from the file's first bytes (its magic number),
    /// not from its name or the server's `Content-Type`: a 404 page served as `200 image/jpeg` is HTML.
    ///
    /// The formats are those `UNNotificationAttachment` documents: JPEG, GIF and PNG images; MPEG, MPEG-2, MPEG-4
    /// and AVI movies; AIFF, WAVE, MP3 and MPEG-4 audio.
    public enum MediaFormat: String, Sendable, Hashable, CaseIterable {
        case jpeg, png, gif
        case mpeg4Video, quickTime, mpeg, avi
        case aiff, wave, mp3, mpeg4Audio

        /// The kind of attachment it is (a GIF is an image attachment; ``PayloadMedia/Kind/gif`` accepts stills).
        public var kind: PayloadMedia.Kind {
            switch self {
            case .jpeg, .png: .image
            case .gif: .gif
            case .mpeg4Video, .quickTime, .mpeg, .avi: .video
            case .aiff, .wave, .mp3, .mpeg4Audio: .audio
            }
        }

        /// The file extension the temporary file gets (iOS reads the type from it, or from the type hint).
        public var fileExtension: String {
            switch self {
            case .jpeg: "jpg"
            case .png: "png"
            case .gif: "gif"
            case .mpeg4Video: "mp4"
            case .quickTime: "mov"
            case .mpeg: "mpg"
            case .avi: "avi"
            case .aiff: "aiff"
            case .wave: "wav"
            case .mp3: "mp3"
            case .mpeg4Audio: "m4a"
            }
        }

        /// The Uniform Type Identifier, given as `UNNotificationAttachmentOptionsTypeHintKey`.
        public var typeIdentifier: String {
            switch self {
            case .jpeg: "public.jpeg"
            case .png: "public.png"
            case .gif: "com.compuserve.gif"
            case .mpeg4Video: "public.mpeg-4"
            case .quickTime: "com.apple.quicktime-movie"
            case .mpeg: "public.mpeg"
            case .avi: "public.avi"
            case .aiff: "public.aiff-audio"
            case .wave: "com.microsoft.waveform-audio"
            case .mp3: "public.mp3"
            case .mpeg4Audio: "public.mpeg-4-audio"
            }
        }

        /// Whether media declared as `kind` may be this format: images and GIFs stand in for each other (iOS shows
        /// both as an image attachment), movies and sounds only as themselves.
        public func fits(_ kind: PayloadMedia.Kind) -> Bool {
            switch (self.kind, kind) {
            case (.image, .image), (.image, .gif), (.gif, .image), (.gif, .gif), (.video, .video), (.audio, .audio):
                true
            default: false
            }
        }

        /// The format the bytes start with, or `nil` when they are none of these (HTML, JSON, WebP, …).
        public static func sniff(_ bytes: some Collection<UInt8>) -> MediaFormat? {
            let head = Array(bytes.prefix(16))
            func starts(_ prefix: [UInt8], at offset: Int = 0) -> Bool {
                head.count >= offset + prefix.count && Array(head[offset..<offset + prefix.count]) == prefix
            }
            func ascii(_ text: String) -> [UInt8] { Array(text.utf8) }
            if starts([0xFF, 0xD8, 0xFF]) { return .jpeg }
            if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
            if starts(ascii("GIF87a")) || starts(ascii("GIF89a")) { return .gif }
            if starts(ascii("ftyp"), at: 4) {
                if starts(ascii("M4A "), at: 8) || starts(ascii("M4B "), at: 8) { return .mpeg4Audio }
                if starts(ascii("qt  "), at: 8) { return .quickTime }
                return .mpeg4Video
            }
            if starts([0x00, 0x00, 0x01, 0xBA]) || starts([0x00, 0x00, 0x01, 0xB3]) { return .mpeg }
            if starts(ascii("RIFF")) && starts(ascii("AVI "), at: 8) { return .avi }
            if starts(ascii("RIFF")) && starts(ascii("WAVE"), at: 8) { return .wave }
            if starts(ascii("FORM")) && (starts(ascii("AIFF"), at: 8) || starts(ascii("AIFC"), at: 8)) { return .aiff }
            if starts(ascii("ID3")) || (head.count >= 2 && head[0] == 0xFF && head[1] & 0xE0 == 0xE0) { return .mp3 }
            return nil
        }
    }
#endif
