/// Why a notification could not be sent, with an extensible reason, as APNSwift models it.
public struct APNsError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong on Pushbutton's side (APNs' own answers are ``APNsReason``s in results).
    public struct Kind: RawRepresentable, Sendable, Hashable {
        public var rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public static let invalidDeviceToken = Kind(rawValue: "invalid-device-token")
        public static let invalidKey = Kind(rawValue: "invalid-key")
        public static let transport = Kind(rawValue: "transport")
        public static let shutDown = Kind(rawValue: "shut-down")
        /// The request cannot be sent as it is (a header value with CR, LF or another control character):
        /// refused before it reaches the network, never retried.
        public static let invalidRequest = Kind(rawValue: "invalid-request")
    }

    public var kind: Kind
    public var message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { message }
}
