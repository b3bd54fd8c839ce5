internal import CPostgreSQL
import Foundation

/// One libpq connection. Statements are written with `?` and numbered `$1…` here, prepared once per
/// connection by their SQL text (`PQprepare`, then `PQexecPrepared`: the server parses and plans each only
/// once), integers, reals and bytes bound in binary where the server typed the parameter so, text as text;
/// results come back in binary when every column has a binary form read here, else as text, typed by each
/// column's OID.
///
/// A connection whose session ends (the server restarted, a DBA or an idle timeout terminated it, the network
/// dropped) connects again by itself, with ``ReconnectBackoff`` between failed attempts, but only where that
/// cannot apply anything twice or half: before a statement outside a transaction, or before `BEGIN`, and only
/// once nothing of that statement has been sent. A statement that was sent when the session died fails, and so
/// does the rest of its transaction (the server rolled it back); a `COMMIT` that was sent and got no answer
/// fails saying its outcome is unknown. The store never retries those: the caller sees the error (a 503).
final class PostgresConnection: SQLConnection {
    /// The session, `nil` after it was lost and until a statement connects again.
    private var handle: OpaquePointer?
    private let url: String
    private let gate: ReconnectGate
    /// Whether the store began a transaction here that it has not committed or rolled back yet: a lost session
    /// is then not replaced until it does (the statements that follow belong to the rolled-back transaction).
    private var inTransaction = false
    /// Sessions this connection has opened (1 once made; more after reconnections).
    private(set) var sessions = 0
    let beginTransaction = "BEGIN"
    /// Prepared statements by the store's SQL text, at most ``statementLimit``.
    private var statements: [String: PostgresStatement] = [:]
    private var runs = 0
    private var nextName = 0
    /// Multi-row statements come in a few fixed row counts (``StatementShapes``), so the store's statements
    /// are a few dozen; the bound keeps a caller that builds SQL text per call from growing the server's
    /// memory and ours for the connection's life.
    static let statementLimit = 256

    /// Connects now (failing if the server cannot be reached); `gate` paces reconnection attempts later (shared
    /// by a store's connections).
    init(url: String, gate: ReconnectGate = ReconnectGate()) throws(StoreError) {
        self.url = url
        self.gate = gate
        handle = try Self.connect(url)
        sessions = 1
    }

    deinit { PQfinish(handle) }

    private static func connect(_ url: String) throws(StoreError) -> OpaquePointer {
        guard let handle = PostgresConnectDefaults.connect(url) else {
            throw StoreError("out of memory", context: "connecting")
        }
        guard PQstatus(handle) == CONNECTION_OK else {
            let message = String(cString: PQerrorMessage(handle)).trimmingCharacters(in: .whitespacesAndNewlines)
            PQfinish(handle)
            throw StoreError(message, context: "connecting to \(PostgresConnection.redacted(url))")
        }
        let result = PQexec(handle, "SET client_min_messages = warning")
        defer { PQclear(result) }
        guard PQresultStatus(result) == PGRES_COMMAND_OK else {
            let message = String(cString: PQerrorMessage(handle)).trimmingCharacters(in: .whitespacesAndNewlines)
            PQfinish(handle)
            throw StoreError(message, context: "setting up the session on \(PostgresConnection.redacted(url))")
        }
        return handle
    }

    /// Whether the session is open as far as this side knows (false after it was found lost).
    var isConnected: Bool { handle.map { PQstatus($0) == CONNECTION_OK } ?? false }

    /// The session to send `sql` on. Outside a transaction a lost session is replaced first: what the server sent
    /// while the connection was idle is read without sending anything, so a restarted server's or a terminated
    /// session's goodbye is seen here, before any of `sql` could reach a server.
    func session(for sql: String) throws(StoreError) -> OpaquePointer {
        if let handle {
            if !inTransaction { Self.readWhatArrivedWhileIdle(handle) }
            if PQstatus(handle) == CONNECTION_OK { return handle }
            drop()
        }
        guard !inTransaction else { throw Self.lostTransaction(sql) }
        let wait = gate.wait()
        guard wait == .zero else {
            throw StoreError(
                "no connection to the server; the next attempt to reconnect is in \(wait)",
                context: "reconnecting to \(Self.redacted(url))")
        }
        do {
            let handle = try Self.connect(url)
            gate.succeeded()
            self.handle = handle
            sessions += 1
            return handle
        } catch {
            gate.failed()
            throw error
        }
    }

    /// Reads (never writes) what the socket holds: an idle session outside a transaction is sent nothing but
    /// a server's goodbye (an error, then the end of the stream) and rare status messages, which libpq keeps.
    private static func readWhatArrivedWhileIdle(_ handle: OpaquePointer) {
        let socket = PQsocket(handle)
        guard socket >= 0 else { return }
        // A goodbye arrives as a message and then the end of the stream: a few reads reach the end.
        for _ in 0..<4 {
            var descriptor = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, 0) > 0 else { return }
            guard PQconsumeInput(handle) == 1, PQstatus(handle) == CONNECTION_OK else { return }
        }
    }

    /// Closes a lost session; the server forgot its prepared statements with it.
    private func drop() {
        PQfinish(handle)
        handle = nil
        statements.removeAll()
    }

    /// After a statement failed: closes the session if libpq found it lost, or if the server said it is
    /// ending it (SQLSTATE class 08, connection exception; 57P01–57P03, shutting down or not accepting).
    private func noteFailure(_ result: OpaquePointer?) {
        guard let handle else { return }
        let state = result.flatMap { PQresultErrorField($0, Int32(UInt8(ascii: "C"))) }.map { String(cString: $0) }
        if PQstatus(handle) == CONNECTION_BAD || state.map(Self.endsTheSession) == true { drop() }
    }

    /// Whether an error's SQLSTATE means the server ended, or is ending, the session.
    static func endsTheSession(_ state: String) -> Bool {
        state.hasPrefix("08") || ["57P01", "57P02", "57P03"].contains(state)
    }

    /// The URL without its password.
    static func redacted(_ url: String) -> String { StoreLocation.redacted(url) }

    /// How many statements this connection has prepared and keeps.
    var preparedCount: Int { statements.count }

    func script(_ sql: String) throws(StoreError) {
        let endsTransaction = sql == "COMMIT" || sql == "ROLLBACK"
        if endsTransaction && !isConnected {
            // The server rolled the transaction back when the session ended: nothing to send, nor to reconnect
            // for (a COMMIT sent on a new session would "succeed" with nothing to commit).
            let wasInTransaction = inTransaction
            inTransaction = false
            drop()
            guard sql == "COMMIT" && wasInTransaction else { return }
            throw Self.lostTransaction(sql)
        }
        let handle = try session(for: sql)
        if endsTransaction { inTransaction = false }
        let result = PQexec(handle, sql)
        defer { PQclear(result) }
        let status = PQresultStatus(result)
        let succeeded = status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK
        if sql == beginTransaction && succeeded { inTransaction = true }
        guard succeeded else {
            var error = failure(result, sql)
            noteFailure(result)
            if sql == "COMMIT" && !isConnected {
                error.message =
                    "the connection to the server was lost while committing, so whether the transaction was"
                    + " committed is unknown: \(error.message)"
            }
            throw error
        }
        if !statements.isEmpty && !Self.leavesSchema(sql) { forgetStatements(handle) }
    }

    private static func lostTransaction(_ sql: String) -> StoreError {
        StoreError(
            "the connection to the server was lost during this transaction, which the server rolled back:"
                + " nothing of it was committed", context: sql)
    }

    /// Whether `sql` is one of the scripts that cannot change a table (transaction control, settings): any
    /// other (a migration's) may change what a prepared statement's result looks like, which PostgreSQL
    /// refuses to re-plan ("cached plan must not change result type").
    private static func leavesSchema(_ sql: String) -> Bool {
        sql == "BEGIN" || sql == "COMMIT" || sql == "ROLLBACK" || sql.hasPrefix("SET ")
    }

    private func forgetStatements(_ handle: OpaquePointer) {
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
    private func statement(_ sql: String, on handle: OpaquePointer) throws(StoreError) -> PostgresStatement {
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
        guard PQresultStatus(prepared) == PGRES_COMMAND_OK else {
            let error = failure(prepared, sql)
            noteFailure(prepared)
            throw error
        }
        let description = PQdescribePrepared(handle, name)
        defer { PQclear(description) }
        guard PQresultStatus(description) == PGRES_COMMAND_OK else {
            let error = failure(description, sql)
            noteFailure(description)
            throw error
        }
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
        let handle = try session(for: sql)
        let statement = try statement(sql, on: handle)
        let parameters = PostgresParameters(values, types: statement.parameterTypes)
        let result = parameters.withPointers { pointers in
            PQexecPrepared(
                handle, statement.name, Int32(values.count), pointers, parameters.lengths, parameters.formats,
                statement.resultFormat)
        }
        defer { PQclear(result) }
        let status = PQresultStatus(result)
        guard status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK else {
            let error = failure(result, sql)
            noteFailure(result)
            throw error
        }
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
        let handle = try session(for: sql)
        let start = PQexec(handle, sql)
        let started = PQresultStatus(start) == PGRES_COPY_IN
        defer { PQclear(start) }
        guard started else {
            let error = failure(start, sql)
            noteFailure(start)
            throw error
        }
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
        if let problem {
            noteFailure(nil)
            throw problem
        }
        guard sent == 1, ended == 1 else {
            let error = failure(nil, sql)
            noteFailure(nil)
            throw error
        }
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

    func failure(_ result: OpaquePointer?, _ sql: String) -> StoreError {
        let message =
            result.map { String(cString: PQresultErrorMessage($0)) }
            ?? handle.map { String(cString: PQerrorMessage($0)) } ?? "no connection to the server"
        return StoreError(message.trimmingCharacters(in: .whitespacesAndNewlines), context: sql)
    }
}
