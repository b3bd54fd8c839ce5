import PushbuttonSQLite

/// Why the outbox could not take, keep or read an entry.
///
/// Branch on ``code`` (an extensible set, as async-http-client's `HTTPClientError` and GRDB's
/// `DatabaseError` are: new codes are not a breaking change, so a `switch` needs a `default`); the fields
/// that belong to a code (``capacity``, ``path``, ``sqliteCode``, ``entryID``) are set with it.
public struct OutboxError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of failure this is.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private let name: String
        private init(_ name: String) { self.name = name }
        /// The code's name, as `full` or `corruptEntry`.
        public var description: String { name }

        /// The outbox holds ``OutboxOptions/capacity`` waiting entries and the policy is to refuse new ones.
        public static let full = Code("full")
        /// The database failed (``OutboxError/sqliteCode`` says how).
        public static let storage = Code("storage")
        /// Another process is delivering from this outbox (``OutboxError/path``).
        public static let workerBusy = Code("workerBusy")
        /// The request cannot be sent as it is (a header value with CR or LF, a method that is not an HTTP
        /// token): refused when it is enqueued rather than sent without the header or not at all.
        public static let invalidRequest = Code("invalidRequest")
        /// A stored entry cannot be read back as it was stored (a column missing, NULL or of the wrong type, a
        /// body that is not JSON): it is never sent that way (``OutboxError/entryID`` says which).
        public static let corruptEntry = Code("corruptEntry")
    }

    /// What kind of failure this is: branch on it.
    public let code: Code
    /// What happened, where, and how to fix it: one line.
    public let message: String
    /// The capacity that was reached, for ``Code/full``.
    public let capacity: Int?
    /// The database's path, for ``Code/workerBusy``.
    public let path: String?
    /// SQLite's result code, for ``Code/storage`` and ``Code/corruptEntry``.
    public let sqliteCode: Int32?
    /// The entry that could not be read, for ``Code/corruptEntry``.
    public let entryID: Int64?

    private init(
        _ code: Code, _ message: String, capacity: Int? = nil, path: String? = nil, sqliteCode: Int32? = nil,
        entryID: Int64? = nil
    ) {
        self.code = code
        self.message = message
        self.capacity = capacity
        self.path = path
        self.sqliteCode = sqliteCode
        self.entryID = entryID
    }

    /// The ``message``.
    public var description: String { message }

    /// The outbox is full; the entry was not stored.
    public static func full(capacity: Int) -> OutboxError {
        OutboxError(
            .full, "the outbox is full (\(capacity) entries waiting); the entry was not stored", capacity: capacity)
    }

    /// Another delivery worker holds the lock on `path`.
    public static func workerBusy(_ path: String) -> OutboxError {
        OutboxError(.workerBusy, "another delivery worker is running on \(path)", path: path)
    }

    /// The request was refused at enqueue; `problem` says why.
    public static func invalidRequest(_ problem: String) -> OutboxError {
        OutboxError(.invalidRequest, "the request was not stored: \(problem)")
    }

    /// The database failed.
    package static func storage(_ error: SQLiteError) -> OutboxError {
        OutboxError(.storage, "outbox storage: \(error)", sqliteCode: error.code)
    }

    /// The folder the database goes in could not be created.
    package static func folder(_ path: String, _ error: any Error) -> OutboxError {
        OutboxError(
            .storage,
            "outbox: cannot create the folder \(path) for its database (\(error)); check that the app can write "
                + "there (an App Group's container needs the group in both targets' entitlements)",
            path: path)
    }

    /// Entry `id` (or a row whose id cannot be read, `nil`) of the database at `path` is corrupt.
    package static func corruptEntry(_ id: Int64?, path: String, problem: String) -> OutboxError {
        OutboxError(
            .corruptEntry,
            "outbox \(path): entry \(id.map(String.init) ?? "(unreadable id)") is corrupt (\(problem)); it is not "
                + "sent: inspect it with sqlite3, then purge it (pushbutton outbox purge) or restore the file from a backup",
            sqliteCode: 11, entryID: id)
    }
}
