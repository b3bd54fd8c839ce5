/// Why an action could not be registered or performed.
public struct ActionRegistryError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong. Extensible, like APNs reasons.
    public struct Reason: RawRepresentable, Sendable, Hashable {
        public var rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }

        /// The identifier is in Pushbutton's `pushbutton.` namespace.
        public static let reservedPrefix = Reason(rawValue: "reserved-prefix")
        /// The identifier is empty or a system identifier.
        public static let invalidIdentifier = Reason(rawValue: "invalid-identifier")
        /// No action is registered under the identifier.
        public static let notRegistered = Reason(rawValue: "not-registered")
    }

    public var reason: Reason
    public var identifier: String
    public var message: String

    public init(_ reason: Reason, identifier: String, _ message: String) {
        self.reason = reason
        self.identifier = identifier
        self.message = message
    }

    public var description: String { message }
}
