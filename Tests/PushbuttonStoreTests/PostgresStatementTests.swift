import Foundation
import PushbuttonTestSupport
import Testing

@testable import PushbuttonStore

/// ``PostgresConnection``'s prepared statements: values in and out in binary and in text, the cache's bound,
/// a migration's schema change, and errors that still name the statement.
@Suite(.timeLimit(.minutes(3)))
struct PostgresStatementTests {
    /// A connection to a fresh database (created off Swift's cooperative threads: it takes a while under load).
    static func connection() async throws -> PostgresConnection {
        let url = try await Blocking.run { () throws -> String in try TestPostgres.shared.freshDatabase() }
        return try PostgresConnection(url: url)
    }

    @Test func everyValueComesBackAsItWentIn() async throws {
        let connection = try await Self.connection()
        try connection.script(
            """
            CREATE TABLE t (id BIGINT, small INTEGER, tiny SMALLINT, real DOUBLE PRECISION, flag BOOLEAN,
                name TEXT, label VARCHAR(20), bytes BYTEA)
            """)
        let rows: [[SQLValue]] = [
            [
                .integer(Int64.max), .integer(-2_147_483_648), .integer(-7), .real(1_764_600_000.123_456), .integer(1),
                .text("Anna ✓"), .text("x"), .blob([0, 1, 254, 255]),
            ],
            [.integer(-1), .integer(0), .integer(0), .real(-0.5), .integer(0), .text(""), .text(""), .blob([])],
            [.null, .null, .null, .null, .null, .null, .null, .null],
        ]
        for row in rows {
            try connection.run("INSERT INTO t VALUES (?, ?, ?, ?, ?, ?, ?, ?)", row)
        }
        // Every column has a binary form: the result comes back binary.
        let binary = try connection.query("SELECT * FROM t ORDER BY id DESC NULLS LAST")
        #expect(binary == [rows[0], rows[1], rows[2]])
        // A numeric column has none read here: the whole result comes back as text, typed the same.
        let text = try connection.query(
            "SELECT id, small, real, flag, name, bytes, CAST(small AS NUMERIC) + 0.5 FROM t WHERE id = ?",
            [.integer(Int64.max)])
        #expect(
            text == [
                [
                    .integer(Int64.max), .integer(-2_147_483_648), .real(1_764_600_000.123_456), .integer(1),
                    .text("Anna ✓"), .blob([0, 1, 254, 255]), .real(-2_147_483_647.5),
                ]
            ])
        // Values whose type differs from the parameter's go as text, and the server converts them.
        #expect(try connection.query("SELECT CAST(? AS BIGINT) + 1", [.text("41")]) == [[.integer(42)]])
        #expect(try connection.query("SELECT CAST(? AS INTEGER) * 2", [.integer(1_048_576)]) == [[.integer(2_097_152)]])
        #expect(try connection.query("SELECT name FROM t WHERE name = ?", [.text("Anna ✓")]) == [[.text("Anna ✓")]])
        #expect(try connection.run("UPDATE t SET tiny = tiny + 1 WHERE id IS NOT NULL", []).changes == 2)
    }

    @Test func theCacheIsBoundedAndAnEvictedStatementIsPreparedAgain() async throws {
        let connection = try await Self.connection()
        let limit = PostgresConnection.statementLimit
        for index in 0..<(limit + 20) {
            #expect(
                try connection.query("SELECT CAST(? AS BIGINT) + \(index)", [.integer(1)]) == [
                    [.integer(Int64(index) + 1)]
                ])
        }
        #expect(connection.preparedCount == limit)
        let onServer = try connection.query("SELECT COUNT(*) FROM pg_prepared_statements")
        // The server holds as many (the counting statement among them): evicted ones were deallocated there too.
        #expect(onServer == [[.integer(Int64(limit))]])
        // The first ones were let go (least recently used); they prepare again and still answer.
        #expect(try connection.query("SELECT CAST(? AS BIGINT) + 0", [.integer(5)]) == [[.integer(5)]])
        #expect(connection.preparedCount == limit)
    }

    @Test func aPreparedStatementOutlivesARollbackAndFollowsASchemaChange() async throws {
        let connection = try await Self.connection()
        try connection.script("CREATE TABLE t (id BIGINT)")
        try connection.run("INSERT INTO t VALUES (?)", [.integer(1)])
        #expect(try connection.query("SELECT * FROM t") == [[.integer(1)]])
        let failed: StoreError? = {
            do {
                try connection.transaction { () throws(StoreError) in
                    try connection.run("INSERT INTO t VALUES (?)", [.integer(2)])
                    throw StoreError("abandoned", context: "the test")
                }
                return nil
            } catch { return error as? StoreError }
        }()
        #expect(failed?.message == "abandoned")
        #expect(try connection.query("SELECT * FROM t") == [[.integer(1)]])
        // A migration's script changes the table: `SELECT *` now has two columns (PostgreSQL would refuse
        // the old prepared statement: "cached plan must not change result type").
        try connection.script("ALTER TABLE t ADD COLUMN name TEXT DEFAULT 'added'")
        #expect(try connection.query("SELECT * FROM t") == [[.integer(1), .text("added")]])
    }

    @Test func errorsNameTheStatementAndKeepTheConnectionUsable() async throws {
        let connection = try await Self.connection()
        let sql = "SELECT nothing FROM nowhere WHERE id = ?"
        #expect {
            try connection.query(sql, [.integer(1)])
        } throws: { error in
            let error = error as? StoreError
            return error?.context == sql && error?.message.contains("\"nowhere\" does not exist") == true
        }
        // A value the server cannot convert: located the same way, at execution.
        let cast = "SELECT CAST(? AS BIGINT)"
        #expect {
            try connection.query(cast, [.text("twelve")])
        } throws: { error in
            let error = error as? StoreError
            return error?.context == cast && error?.message.contains("invalid input syntax") == true
        }
        #expect(try connection.query(cast, [.integer(12)]) == [[.integer(12)]])
    }
}
