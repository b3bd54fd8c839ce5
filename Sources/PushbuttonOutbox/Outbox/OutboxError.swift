import PushbuttonSQLite

/// Why the outbox could not take or keep an entry.
public enum OutboxError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The outbox holds ``OutboxOptions/capacity`` waiting entries and the policy is to refuse new ones.
    case full(capacity: Int)
    /// The database failed.
    case storage(SQLiteError)
    /// Another process is delivering from this outbox.
    case workerBusy(String)
    /// The request cannot be sent as it is (a header value with CR or LF, a URL that does not parse):
    /// refused when it is enqueued rather than sent without the header or not at all.
    case invalidRequest(String)

    public var description: String {
        switch self {
        case .full(let capacity): return "the outbox is full (\(capacity) entries waiting); the entry was not stored"
        case .storage(let error): return "outbox storage: \(error)"
        case .workerBusy(let path): return "another delivery worker is running on \(path)"
        case .invalidRequest(let message): return "the request was not stored: \(message)"
        }
    }
}
