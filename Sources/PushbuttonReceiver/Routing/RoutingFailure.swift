/// Why a step the router ran failed: a ``code`` to branch on, the one-line ``message`` the report has always
/// shown, and the ``underlying`` error when the step threw one.
///
/// Codes are extensible (new ones can come in a minor release), as AsyncHTTPClient's `HTTPClientError` is:
/// compare with the static members and keep a default case.
public struct RoutingFailure: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of failure it is.
    public struct Code: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        /// The code's name, stable across releases.
        public var rawValue: String
        /// The code named `rawValue`.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The code's name.
        public var description: String { rawValue }

        /// An app-defined action's handler threw (``RoutingFailure/underlying`` is what it threw).
        public static let actionFailed = Code(rawValue: "action-failed")
        /// A general response handler threw.
        public static let responseHandlerFailed = Code(rawValue: "response-handler-failed")
        /// The URL opener did not open the action's URL.
        public static let urlNotOpened = Code(rawValue: "url-not-opened")
        /// A system service (copy, rating prompt, settings, share sheet) threw.
        public static let systemServiceFailed = Code(rawValue: "system-service-failed")
        /// The user did not allow notifications when asked.
        public static let permissionDenied = Code(rawValue: "permission-denied")
        /// Asking for notification permission threw.
        public static let permissionRequestFailed = Code(rawValue: "permission-request-failed")
        /// The tag store threw while adding or removing tags.
        public static let tagStoreFailed = Code(rawValue: "tag-store-failed")
        /// The backend delivery (a callback) threw: it could not be sent or queued.
        public static let backendDeliveryFailed = Code(rawValue: "backend-delivery-failed")
    }

    /// What kind of failure it is, to branch on.
    public var code: Code
    /// What went wrong, for people: the thrown error's description, or what did not happen.
    public var message: String
    /// The error the step threw, if it threw one (cast it to branch on its own type, as `OutboxError`).
    public var underlying: (any Error)?

    /// A failure of `code`, described by `message`.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// A failure of `code` for the thrown `error`, described by it.
    public init(_ code: Code, error: any Error) {
        self.init(code, String(describing: error))
        underlying = error
    }

    /// The message.
    public var description: String { message }

    /// Failures are equal when their codes and messages are (the underlying error need not be `Equatable`).
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.code == rhs.code && lhs.message == rhs.message }

    /// Hashes the code and the message.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(code)
        hasher.combine(message)
    }
}

extension RoutingReport.Step.Outcome {
    /// The failure, when the step failed.
    public var failure: RoutingFailure? {
        guard case .failed(let failure) = self else { return nil }
        return failure
    }
}
