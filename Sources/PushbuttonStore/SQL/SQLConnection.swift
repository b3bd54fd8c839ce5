/// One connection to an SQL database, used by one thread at a time (the ``ConnectionPool`` sees to it).
///
/// Statements use `?` placeholders; a PostgreSQL connection numbers them itself.
protocol SQLConnection: AnyObject {
    /// Runs one statement with bound values: its rows, and how many rows it changed.
    @discardableResult
    func run(_ sql: String, _ values: [SQLValue]) throws(StoreError) -> (rows: [[SQLValue]], changes: Int)

    /// Runs statements without values (a migration's script).
    func script(_ sql: String) throws(StoreError)

    /// The statement that starts a write transaction.
    var beginTransaction: String { get }
}

extension SQLConnection {
    @discardableResult
    func query(_ sql: String, _ values: [SQLValue] = []) throws(StoreError) -> [[SQLValue]] {
        try run(sql, values).rows
    }

    /// Runs `body` in one transaction, rolled back if it throws.
    func transaction<Result>(_ body: () throws(StoreError) -> Result) throws(StoreError) -> Result {
        try script(beginTransaction)
        do {
            let result = try body()
            try script("COMMIT")
            return result
        } catch {
            try? script("ROLLBACK")
            throw error
        }
    }
}
