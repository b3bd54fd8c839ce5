import Foundation
import PushbuttonSupport

extension SQLGatewayStore {
    /// Connects `connections` times to the PostgreSQL database at `url` (`postgres://user@host:port/db`),
    /// applies missing migrations (one process at a time), and shares the queue with every other process
    /// connected to it. A connection whose session is lost later connects again by itself (see
    /// `PostgresConnection`): the store recovers when the server restarts.
    public static func postgres(url: String, connections: Int = 8, now: Date = Date()) throws(StoreError)
        -> SQLGatewayStore
    {
        try postgres(url: url, connections: connections, now: now, clock: AnyDurationClock(ContinuousClock()))
    }

    /// ``postgres(url:connections:now:)`` with the clock that times the backoff between reconnection attempts.
    package static func postgres(url: String, connections: Int = 8, now: Date = Date(), clock: AnyDurationClock)
        throws(StoreError) -> SQLGatewayStore
    {
        let gate = ReconnectGate(clock: clock)
        var opened: [any SQLConnection] = []
        for _ in 0..<max(1, connections) { opened.append(try PostgresConnection(url: url, gate: gate)) }
        try StoreMigrations.migrate(opened[0], dialect: .postgres, now: now)
        return SQLGatewayStore(
            pool: ConnectionPool(opened), dialect: .postgres, location: PostgresConnection.redacted(url))
    }
}
