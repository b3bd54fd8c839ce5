internal import CPostgreSQL
import Foundation

extension PostgresConnection {
    /// The server process serving this connection now (`pg_backend_pid()`, by a simple query: no prepared
    /// statement, which a transaction-mode pooler could not keep either).
    func serverProcess() throws(StoreError) -> String {
        let sql = "SELECT pg_backend_pid()"
        let handle = try session(for: sql)
        let result = PQexec(handle, sql)
        defer { PQclear(result) }
        guard PQresultStatus(result) == PGRES_TUPLES_OK, PQntuples(result) == 1, let value = PQgetvalue(result, 0, 0)
        else { throw failure(result, sql) }
        return String(cString: value)
    }

    /// **The gateway needs a server session per connection**: its prepared statements, the migrations' advisory
    /// lock and `LISTEN` belong to the session. A pooler in transaction or statement mode (pgbouncer's
    /// `pool_mode = transaction`) hands a connection's statements to whichever server connection is free, and
    /// clients cannot ask it which mode it runs. So: `first` reads its server process, `second` holds a
    /// transaction (a pooler gives it the server `first` just let go, the most recently used), and `first`
    /// reads again: another process means the session did not last, and the store refuses to start.
    static func checkSessions(_ first: PostgresConnection, _ second: PostgresConnection) throws(StoreError) {
        let before = try first.serverProcess()
        try second.script(second.beginTransaction)
        defer { try? second.script("ROLLBACK") }
        _ = try second.serverProcess()
        let after = try first.serverProcess()
        guard before == after else {
            throw StoreError(
                .database,
                "one connection's statements ran in two server sessions (\(before), then \(after)): PostgreSQL is"
                    + " reached through a pooler in transaction or statement mode, and the gateway needs a session per"
                    + " connection (prepared statements, the migrations' advisory lock, LISTEN). Use pool_mode = session"
                    + " (pgbouncer) or connect to PostgreSQL directly",
                context: "checking the connection to PostgreSQL")
        }
    }
}
