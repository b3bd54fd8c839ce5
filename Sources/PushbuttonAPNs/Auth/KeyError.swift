/// Why a key could not be read, made or used: a ``code`` to branch on, and a message that says what to fix.
///
/// Codes are extensible (new ones can come in a minor release), as AsyncHTTPClient's `HTTPClientError` is:
/// compare with the static members and keep a default case.
public struct KeyError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of failure it is.
    public struct Code: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        /// The code's name, stable across releases.
        public var rawValue: String
        /// The code named `rawValue`.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The code's name.
        public var description: String { rawValue }

        /// The text is not a key in PEM form.
        public static let notPEM = Code(rawValue: "not-pem")
        /// The key is not on the P-256 curve, as APNs provider keys are.
        public static let wrongKeyType = Code(rawValue: "wrong-key-type")
        /// The key is encrypted; Pushbutton never prompts for a pass phrase.
        public static let encrypted = Code(rawValue: "encrypted")
        /// The key file could not be read.
        public static let unreadableFile = Code(rawValue: "unreadable-file")
        /// Signing a provider token failed.
        public static let signingFailed = Code(rawValue: "signing-failed")
        /// Making a new key failed.
        public static let generationFailed = Code(rawValue: "generation-failed")
    }

    /// What kind of failure it is, to branch on.
    public var code: Code
    /// What went wrong and how to fix it, for people.
    public var message: String

    /// An error of `code`, described by `message`.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// The message.
    public var description: String { message }
}
