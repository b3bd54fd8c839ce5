import Glibc

/// The process's limit on open descriptors, and how many of them the HTTP server may spend on connections.
///
/// Services usually start with a soft limit of 1024 and a far higher hard one: left at 1024, about a thousand
/// idle connections exhaust it and `accept` fails for everyone, the store and APNs included.
public enum FileDescriptorLimit {
    /// Raises the soft limit to the hard one (a process may, without privilege) and returns the soft limit
    /// now in force.
    @discardableResult
    public static func raiseSoftToHard() -> Int {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 1024 }
        if limit.rlim_cur < limit.rlim_max {
            var raised = limit
            raised.rlim_cur = limit.rlim_max
            if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &raised) == 0 { limit = raised }
        }
        return limit.rlim_cur > rlim_t(Int32.max) ? Int(Int32.max) : Int(limit.rlim_cur)
    }

    /// Descriptors kept back from connections: the store's files or connections, APNs connections, the
    /// webhook's, logs. An eighth of the limit, at least 128, at most 4096.
    public static func reserve(limit: Int) -> Int {
        min(4096, max(128, limit / 8))
    }

    /// The connection cap the server uses: `configured` if given, never more than the limit less the reserve
    /// (and at least 16, so a tiny limit still serves).
    public static func connectionCap(configured: Int?, limit: Int) -> Int {
        let available = max(16, limit - reserve(limit: limit))
        return min(configured ?? available, available)
    }
}
