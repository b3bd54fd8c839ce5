import Foundation
import PushbuttonSupport

extension SQLGatewayStore {
    /// Connects `connections` times to the PostgreSQL database at `url` (`postgres://user@host:port/db`),
    /// applies missing migrations (one process at a time), and shares the queue with every other process
    /// connected to it. A connection whose session is lost later connects again by itself (see
    /// `PostgresConnection`): the store recovers when the server restarts. While the gateway's workers observe
    /// committed work, one more connection `LISTEN`s for other processes' intakes (and while a request waits for
    /// outcomes, one for other processes' recordings); `listenerRetry` is their first reconnection delay after
    /// a drop.
    public static func postgres(
        url: String, connections: Int = 8, now: Date = Date(), listenerRetry: Duration = .milliseconds(100)
    ) throws(StoreError) -> SQLGatewayStore {
        try postgres(
            url: url, connections: connections, now: now, listenerRetry: listenerRetry,
            clock: AnyDurationClock(ContinuousClock()))
    }

    /// ``postgres(url:connections:now:listenerRetry:)`` with the clock that times the backoff between
    /// reconnection attempts.
    package static func postgres(
        url: String, connections: Int = 8, now: Date = Date(), listenerRetry: Duration = .milliseconds(100),
        clock: AnyDurationClock
    ) throws(StoreError) -> SQLGatewayStore {
        let gate = ReconnectGate(clock: clock)
        var opened: [PostgresConnection] = []
        for _ in 0..<max(2, connections) { opened.append(try PostgresConnection(url: url, gate: gate)) }
        // Before anything relies on a session (the migrations' advisory lock first).
        try PostgresConnection.checkSessions(opened[0], opened[1])
        try StoreMigrations.migrate(opened[0], dialect: .postgres, now: now)
        try numberAppVersions(opened[0])
        let committedWork = CommittedWork(listenURL: url, listenerRetry: listenerRetry)
        return SQLGatewayStore(
            pool: ConnectionPool(opened), dialect: .postgres, location: PostgresConnection.redacted(url),
            committedWork: committedWork,
            outcomeNotices: OutcomeNotices(listenURL: url, listenerRetry: listenerRetry, origin: committedWork.origin),
            notifier: PostgresNotifier(url: url))
    }
}
