/// Setting up TLS or the listening socket failed: a ``code`` to branch on, and a message that says what to fix.
///
/// Codes are extensible (new ones can come in a minor release), as AsyncHTTPClient's `HTTPClientError` is:
/// compare with the static members and keep a default case.
public struct MockAPNsError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of failure it is.
    public struct Code: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        /// The code's name, stable across releases.
        public var rawValue: String
        /// The code named `rawValue`.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The code's name.
        public var description: String { rawValue }

        /// The certificate directory or a file in it could not be created or written.
        public static let certificateFiles = Code(rawValue: "certificate-files")
        /// OpenSSL could not make the self-signed authority's keys or certificates.
        public static let certificateGeneration = Code(rawValue: "certificate-generation")
        /// The TLS context could not be set up: a certificate or key refused, or a key that does not match.
        public static let tlsConfiguration = Code(rawValue: "tls-configuration")
        /// The listening socket could not be made (an address in use, a host that is not an IPv4 address).
        public static let listen = Code(rawValue: "listen")
        /// The server's event loop could not be set up.
        public static let eventLoop = Code(rawValue: "event-loop")
        /// A connection's TLS or HTTP/2 session could not be started.
        public static let connectionSetup = Code(rawValue: "connection-setup")
    }

    /// What kind of failure it is, to branch on.
    public var code: Code
    /// What went wrong and how to fix it, for people.
    public var message: String

    init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// The message.
    public var description: String { message }
}
