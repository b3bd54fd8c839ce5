#if !os(tvOS)
    import Pushbutton

    /// Why a notification's media was not attached. The notification is shown with its buttons all the same.
    public enum MediaFailure: Error, Sendable, Hashable, CustomStringConvertible {
        /// The URL is not `https:` (and the app does not allow `http:`), or not a URL at all.
        case insecureURL(String)
        /// The server answered with this HTTP status.
        case httpStatus(Int)
        /// More redirects than allowed (a loop, most likely).
        case tooManyRedirects
        /// Larger than iOS accepts for the kind; the download stopped at the limit.
        case tooLarge(limit: Int)
        /// The bytes are not of the declared kind (`found` names the format, or "unrecognized").
        case wrongType(declared: PayloadMedia.Kind, found: String)
        /// The budget passed before the download finished.
        case timedOut
        /// The TLS handshake or the server's certificate failed.
        case tls(String)
        /// No network, no route, a refused or lost connection.
        case network(String)
        /// The file could not be written, or the attachment was refused.
        case attachment(String)

        /// The reason, in a sentence.
        public var description: String {
            switch self {
            case .insecureURL(let url): "'\(url)' is not https (plain http is off unless the app allows it)"
            case .httpStatus(let status): "the server answered \(status)"
            case .tooManyRedirects: "too many redirects"
            case .tooLarge(let limit): "larger than the \(limit / 1_000_000) MB iOS accepts; stopped reading"
            case .wrongType(let declared, let found): "declared \(declared.rawValue) but the file is \(found)"
            case .timedOut: "the extension's budget passed before the download finished"
            case .tls(let message): "TLS failed: \(message)"
            case .network(let message): "no connection: \(message)"
            case .attachment(let message): "not attached: \(message)"
            }
        }
    }
#endif
