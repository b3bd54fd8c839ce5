/// Why an entry's last attempt failed, or why it was dead-lettered: ``OutboxEntry/lastCause``, for callers
/// to branch on (``OutboxEntry/lastError`` has the same as one line of text).
public struct OutboxFailure: Sendable, Hashable, CustomStringConvertible {
    /// What kind of failure; an extensible set (a `switch` needs a `default`).
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        let name: String
        init(_ name: String) { self.name = name }
        /// The code's name, as `refused` or `expired` (what the database's `last_cause` column holds).
        public var description: String { name }

        /// The backend answered with a status worth retrying (408, 425, 429, 5xx); ``OutboxFailure/status``.
        public static let retryableStatus = Code("retryableStatus")
        /// The backend answered with a redirect, which is never followed; ``OutboxFailure/status``.
        public static let redirect = Code("redirect")
        /// The backend refused the request (another 4xx, or an unexpected status): dead-lettered at once.
        public static let refused = Code("refused")
        /// No answer: the connection failed, timed out or the sender threw.
        public static let network = Code("network")
        /// Not delivered within its time to live.
        public static let expired = Code("expired")
        /// Evicted to make room under ``OutboxOptions/WhenFull/deadLetterOldest``.
        public static let evicted = Code("evicted")
        /// Stored in a form that cannot be read back (``OutboxError/Code/corruptEntry``); never sent.
        public static let corrupt = Code("corrupt")
    }

    /// What kind of failure this is: branch on it.
    public let code: Code
    /// The HTTP status, for ``Code/retryableStatus``, ``Code/redirect`` and ``Code/refused``.
    public let status: Int?
    /// The failure as one line (what ``OutboxEntry/lastError`` holds).
    public let message: String

    init(_ code: Code, status: Int? = nil, message: String) {
        self.code = code
        self.status = status
        self.message = message
    }

    /// The ``message``.
    public var description: String { message }
}
