internal import CPostgreSQL
import Foundation

/// One libpq connection. Statements are written with `?` and numbered `$1…` here, prepared once per
/// connection by their SQL text (`PQprepare`, then `PQexecPrepared`: the server parses and plans each only
/// once), integers, reals and bytes bound in binary where the server typed the parameter so, text as text;
/// results come back in binary when every column has a binary form read here, else as text, typed by each
/// column's OID.
final class PostgresConnection: SQLConnection {
    private let handle: OpaquePointer
    let beginTransaction = "BEGIN"
    /// Prepared statements by the store's SQL text, at most ``statementLimit``.
    private var statements: [String: PostgresStatement] = [:]
    private var runs = 0
    private var nextName = 0
    /// Multi-row statements come in a few fixed row counts (``StatementShapes``), so the store's statements
    /// are a few dozen; the bound keeps a caller that builds SQL text per call from growing the server's
    /// memory and ours for the connection's life.
    static let statementLimit = 256

    init(url: String) throws(StoreError) {
        guard let handle = PQconnectdb(url) else { throw StoreError("out of memory", context: "connecting") }
        guard PQstatus(handle) == CONNECTION_OK else {
            let message = String(cString: PQerrorMessage(handle)).trimmingCharacters(in: .whitespacesAndNewlines)
            PQfinish(handle)
            throw StoreError(message, context: "connecting to \(PostgresConnection.redacted(url))")
        }
        self.handle = handle
        try script("SET client_min_messages = warning")
    }

    deinit { PQfinish(handle) }

    /// The URL without its password.
    static func redacted(_ url: String) -> String { StoreLocation.redacted(url) }

    /// How many statements this connection has prepared and keeps.
    var preparedCount: Int { statements.count }

    func script(_ sql: String) throws(StoreError) {
        let result = PQexec(handle, sql)
        defer { PQclear(result) }
        let status = PQresultStatus(result)
        guard status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK else { throw failure(result, sql) }
        if !statements.isEmpty && !Self.leavesSchema(sql) { forgetStatements() }
    }

    /// Whether `sql` is one of the scripts that cannot change a table (transaction control, settings): any
    /// other (a migration's) may change what a prepared statement's result looks like, which PostgreSQL
    /// refuses to re-plan ("cached plan must not change result type").
    private static func leavesSchema(_ sql: String) -> Bool {
        sql == "BEGIN" || sql == "COMMIT" || sql == "ROLLBACK" || sql.hasPrefix("SET ")
    }

    private func forgetStatements() {
        PQclear(PQexec(handle, "DEALLOCATE ALL"))
        statements.removeAll()
    }

    private static func number(_ sql: String) -> String {
        var output = ""
        var index = 0
        var quoted = false
        for character in sql {
            if character == "'" { quoted.toggle() }
            if character == "?" && !quoted {
                index += 1
                output += "$\(index)"
            } else {
                output.append(character)
            }
        }
        return output
    }

    /// The prepared statement for `sql`, prepared now if this connection has not yet.
    private func statement(_ sql: String) throws(StoreError) -> PostgresStatement {
        runs += 1
        if var statement = statements[sql] {
            statement.lastUse = runs
            statements[sql] = statement
            return statement
        }
        let name = "pb\(nextName)"
        nextName += 1
        let prepared = PQprepare(handle, name, Self.number(sql), 0, nil)
        defer { PQclear(prepared) }
        guard PQresultStatus(prepared) == PGRES_COMMAND_OK else { throw failure(prepared, sql) }
        let description = PQdescribePrepared(handle, name)
        defer { PQclear(description) }
        guard PQresultStatus(description) == PGRES_COMMAND_OK else { throw failure(description, sql) }
        let parameterTypes = (0..<PQnparams(description)).map { UInt32(PQparamtype(description, $0)) }
        let columnTypes = (0..<PQnfields(description)).map { UInt32(PQftype(description, $0)) }
        let statement = PostgresStatement(
            name: name, parameterTypes: parameterTypes, columnTypes: columnTypes,
            resultFormat: columnTypes.allSatisfy(PostgresStatement.readsBinary) ? 1 : 0, lastUse: runs)
        if statements.count >= Self.statementLimit,
            let oldest = statements.min(by: { $0.value.lastUse < $1.value.lastUse })
        {
            // The server keeps a prepared statement until the session ends or it is deallocated. In an aborted
            // transaction this fails and the server keeps it: harmless, its name is never used again.
            PQclear(PQexec(handle, "DEALLOCATE \(oldest.value.name)"))
            statements[oldest.key] = nil
        }
        statements[sql] = statement
        return statement
    }

    @discardableResult
    func run(_ sql: String, _ values: [SQLValue]) throws(StoreError) -> (rows: [[SQLValue]], changes: Int) {
        let statement = try statement(sql)
        let parameters = PostgresParameters(values, types: statement.parameterTypes)
        let result = parameters.withPointers { pointers in
            PQexecPrepared(
                handle, statement.name, Int32(values.count), pointers, parameters.lengths, parameters.formats,
                statement.resultFormat)
        }
        defer { PQclear(result) }
        let status = PQresultStatus(result)
        guard status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK else { throw failure(result, sql) }
        let changes = Self.integer(PQcmdTuples(result))
        let rowCount = PQntuples(result)
        let columnCount = PQnfields(result)
        var rows: [[SQLValue]] = []
        rows.reserveCapacity(Int(rowCount))
        let types = (0..<columnCount).map { Int(PQftype(result, $0)) }
        let binary = PQbinaryTuples(result) == 1
        for row in 0..<rowCount {
            var values: [SQLValue] = []
            values.reserveCapacity(Int(columnCount))
            for column in 0..<columnCount {
                if PQgetisnull(result, row, column) == 1 {
                    values.append(.null)
                    continue
                }
                let bytes = UnsafeRawBufferPointer(
                    start: PQgetvalue(result, row, column), count: Int(PQgetlength(result, row, column)))
                values.append(
                    binary
                        ? Self.binaryValue(bytes, type: types[Int(column)])
                        : Self.textValue(bytes, type: types[Int(column)]))
            }
            rows.append(values)
        }
        return (rows, changes)
    }

    /// Runs `sql`, a `COPY … FROM STDIN (FORMAT binary)`, sending `rows` (ended here); returns how many rows
    /// it copied.
    /// Errors are located at `sql`, as a statement's are.
    @discardableResult
    func copy(_ sql: String, _ rows: inout PostgresCopyRows) throws(StoreError) -> Int {
        let start = PQexec(handle, sql)
        let started = PQresultStatus(start) == PGRES_COPY_IN
        defer { PQclear(start) }
        guard started else { throw failure(start, sql) }
        rows.finish()
        let sent = rows.bytes.withUnsafeBufferPointer { buffer in
            buffer.baseAddress.map { base in
                base.withMemoryRebound(to: CChar.self, capacity: buffer.count) {
                    PQputCopyData(handle, $0, Int32(buffer.count))
                }
            } ?? 1
        }
        // Ending the copy, even after a failed send, brings the connection back to taking statements.
        let ended = PQputCopyEnd(handle, sent == 1 ? nil : "the copy data could not be sent")
        var problem: StoreError?
        var copied = 0
        while let result = PQgetResult(handle) {
            if PQresultStatus(result) == PGRES_COMMAND_OK {
                copied = Self.integer(PQcmdTuples(result))
            } else if problem == nil {
                problem = failure(result, sql)
            }
            PQclear(result)
        }
        if let problem { throw problem }
        guard sent == 1, ended == 1 else { throw failure(nil, sql) }
        return copied
    }

    /// A decimal count (`PQcmdTuples`), 0 when empty.
    private static func integer(_ text: UnsafePointer<CChar>?) -> Int {
        guard var pointer = text else { return 0 }
        var value = 0
        while pointer.pointee >= 0x30 && pointer.pointee <= 0x39 {
            value = value * 10 + Int(pointer.pointee - 0x30)
            pointer += 1
        }
        return value
    }

    /// A value in PostgreSQL's binary form, for the types ``PostgresStatement/readsBinary(_:)`` accepts.
    static func binaryValue(_ bytes: UnsafeRawBufferPointer, type: Int) -> SQLValue {
        func bigEndian() -> UInt64 { bytes.reduce(0) { $0 << 8 | UInt64($1) } }
        switch type {
        case PUSHBUTTON_PG_INT8: return .integer(Int64(bitPattern: bigEndian()))
        case PUSHBUTTON_PG_INT4: return .integer(Int64(Int32(truncatingIfNeeded: bigEndian())))
        case PUSHBUTTON_PG_INT2: return .integer(Int64(Int16(truncatingIfNeeded: bigEndian())))
        case PUSHBUTTON_PG_BOOL: return .integer(bytes.first == 1 ? 1 : 0)
        case PUSHBUTTON_PG_FLOAT8: return .real(Double(bitPattern: bigEndian()))
        case PUSHBUTTON_PG_FLOAT4: return .real(Double(Float(bitPattern: UInt32(truncatingIfNeeded: bigEndian()))))
        case PUSHBUTTON_PG_BYTEA: return .blob(Array(bytes))
        default: return .text(String(decoding: bytes, as: UTF8.self))
        }
    }

    /// A value in PostgreSQL's text form, typed by its column's OID.
    static func textValue(_ bytes: UnsafeRawBufferPointer, type: Int) -> SQLValue {
        let text = String(decoding: bytes, as: UTF8.self)
        switch type {
        case PUSHBUTTON_PG_INT8, PUSHBUTTON_PG_INT4, PUSHBUTTON_PG_INT2:
            return Int64(text).map { .integer($0) } ?? .text(text)
        case PUSHBUTTON_PG_FLOAT8, PUSHBUTTON_PG_FLOAT4, PUSHBUTTON_PG_NUMERIC:
            return Double(text).map { .real($0) } ?? .text(text)
        case PUSHBUTTON_PG_BOOL: return .integer(text == "t" ? 1 : 0)
        case PUSHBUTTON_PG_BYTEA: return .blob(Self.hexBytes(text))
        default: return .text(text)
        }
    }

    /// bytea's text output, `\x` and hex digits.
    static func hexBytes(_ text: String) -> [UInt8] {
        var bytes: [UInt8] = []
        let digits = Array(text.utf8.dropFirst(2))
        bytes.reserveCapacity(digits.count / 2)
        func value(_ digit: UInt8) -> UInt8 {
            switch digit {
            case 0x30...0x39: digit - 0x30
            case 0x61...0x66: digit - 0x61 + 10
            case 0x41...0x46: digit - 0x41 + 10
            default: 0
            }
        }
        var index = 0
        while index + 1 < digits.count {
            bytes.append(value(digits[index]) << 4 | value(digits[index + 1]))
            index += 2
        }
        return bytes
    }

    private func failure(_ result: OpaquePointer?, _ sql: String) -> StoreError {
        let message =
            result.map { String(cString: PQresultErrorMessage($0)) } ?? String(cString: PQerrorMessage(handle))
        return StoreError(message.trimmingCharacters(in: .whitespacesAndNewlines), context: sql)
    }
}
