/// Why the simulated user could not do what a test or command asked: a ``code`` to branch on, and a message
/// that says what to do instead.
///
/// Codes are extensible (new ones can come in a minor release), as AsyncHTTPClient's `HTTPClientError` is:
/// compare with the static members and keep a default case.
public struct SimulatorError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of failure it is.
    public struct Code: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        /// The code's name, stable across releases.
        public var rawValue: String
        /// The code named `rawValue`.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The code's name.
        public var description: String { rawValue }

        /// No local notification with that request identifier is scheduled.
        public static let notScheduled = Code(rawValue: "not-scheduled")
        /// The notification is not in the notification center: never shown, or already handled.
        public static let notInCenter = Code(rawValue: "not-in-center")
        /// The notification shows no button with that identifier.
        public static let noSuchButton = Code(rawValue: "no-such-button")
        /// The button opens a text field: the user replies with text instead of tapping.
        public static let needsTextInput = Code(rawValue: "needs-text-input")
        /// The button has no text field to reply with.
        public static let notTextInput = Code(rawValue: "not-text-input")
    }

    /// What kind of failure it is, to branch on.
    public var code: Code
    /// What went wrong and what to do instead, for people.
    public var message: String

    /// An error of `code`, described by `message`.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// The message.
    public var description: String { message }
}
