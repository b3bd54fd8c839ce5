/// Why a system service (the pasteboard, the rating prompt, Settings, the share sheet, the permission prompt)
/// could not do what an action asked: a ``code`` to branch on, and a message that says what went wrong.
///
/// Codes are extensible (new ones can come in a minor release), as AsyncHTTPClient's `HTTPClientError` is:
/// compare with the static members and keep a default case. Your own ``SystemServices`` can throw it too.
public struct SystemServiceError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of failure it is.
    public struct Code: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        /// The code's name, stable across releases.
        public var rawValue: String
        /// The code named `rawValue`.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The code's name.
        public var description: String { rawValue }

        /// Nothing on screen to present from (no foreground window scene, no view controller).
        public static let noPresenter = Code(rawValue: "no-presenter")
        /// The system did not open the URL or Settings page.
        public static let notOpened = Code(rawValue: "not-opened")
        /// The action's arguments do not say what the service needs (an unknown permission option, nothing
        /// to share).
        public static let invalidArgument = Code(rawValue: "invalid-argument")
        /// The service failed for another reason (the message says which).
        public static let failed = Code(rawValue: "failed")
    }

    /// What kind of failure it is, to branch on.
    public var code: Code
    /// What went wrong, for people.
    public var message: String

    /// An error of `code`, described by `message`.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// The message.
    public var description: String { message }
}
