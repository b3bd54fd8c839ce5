/// Why a notification could not be sent, with an extensible reason, as APNSwift models it.
public struct APNsError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong on Pushbutton's side (APNs' own answers are ``APNsReason``s in results).
    public struct Kind: RawRepresentable, Sendable, Hashable {
        /// The kind's name, stable across releases.
        public var rawValue: String
        /// The kind named `rawValue`.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The device token is not 64 to 200 hexadecimal digits.
        public static let invalidDeviceToken = Kind(rawValue: "invalid-device-token")
        /// The provider key could not be read or used.
        public static let invalidKey = Kind(rawValue: "invalid-key")
        /// The stream was lost (a GOAWAY, a dropped connection, a timeout): safe to retry with the same `apns-id`.
        public static let transport = Kind(rawValue: "transport")
        /// No connection to APNs could be made (the connection refused, DNS, the TLS handshake failed): the
        /// request was never sent, so the attempt does not count against the notification's attempts.
        public static let unreachable = Kind(rawValue: "unreachable")
        /// The sender was shut down before the notification could be sent.
        public static let shutDown = Kind(rawValue: "shut-down")
        /// The request cannot be sent as it is (a header value with CR, LF or another control character):
        /// refused before it reaches the network, never retried.
        public static let invalidRequest = Kind(rawValue: "invalid-request")
        /// APNs answered with a status that is retried (429, 500, 503) until the attempts ran out; the message
        /// holds the last status and reason.
        public static let serverAnswer = Kind(rawValue: "server-answer")
        /// The caller's task was cancelled before the notification was sent, or before a retry.
        public static let cancelled = Kind(rawValue: "cancelled")
    }

    /// What went wrong, to branch on.
    public var kind: Kind
    /// What went wrong and how to fix it, for people.
    public var message: String

    /// An error of `kind`, described by `message`.
    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    /// The message.
    public var description: String { message }
}
