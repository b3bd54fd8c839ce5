import Foundation

extension SQLGatewayStore {
    /// Connects `connections` times to the PostgreSQL database at `url` (`postgres://user@host:port/db`),
    /// applies missing migrations (one process at a time), and shares the queue with every other process
    /// connected to it. While the gateway's workers observe committed work, one more connection `LISTEN`s
    /// for other processes' intakes; `listenerRetry` is its first reconnection delay after a drop.
    public static func postgres(
        url: String, connections: Int = 8, now: Date = Date(), listenerRetry: Duration = .milliseconds(100)
    ) throws(StoreError) -> SQLGatewayStore {
        var opened: [any SQLConnection] = []
        for _ in 0..<max(1, connections) { opened.append(try PostgresConnection(url: url)) }
        try StoreMigrations.migrate(opened[0], dialect: .postgres, now: now)
        return SQLGatewayStore(
            pool: ConnectionPool(opened), dialect: .postgres, location: PostgresConnection.redacted(url),
            committedWork: CommittedWork(listenURL: url, listenerRetry: listenerRetry))
    }
}
