internal import CPostgreSQL
import Foundation

/// One libpq connection. Statements are written with `?` and numbered `$1…` here; values go as text, bytes
/// as binary parameters; results come back as text and are typed by each column's OID.
final class PostgresConnection: SQLConnection {
    private let handle: OpaquePointer
    let beginTransaction = "BEGIN"
    /// Numbered statements by the store's SQL text.
    private var numbered: [String: String] = [:]

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

    func script(_ sql: String) throws(StoreError) {
        let result = PQexec(handle, sql)
        defer { PQclear(result) }
        let status = PQresultStatus(result)
        guard status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK else { throw failure(result, sql) }
    }

    private func number(_ sql: String) -> String {
        if let done = numbered[sql] { return done }
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
        numbered[sql] = output
        return output
    }

    @discardableResult
    func run(_ sql: String, _ values: [SQLValue]) throws(StoreError) -> (rows: [[SQLValue]], changes: Int) {
        var buffers: [[UInt8]?] = []
        var formats: [Int32] = []
        for value in values {
            switch value {
            case .null: buffers.append(nil)
            case .integer(let integer): buffers.append(Array(String(integer).utf8) + [0])
            case .real(let real): buffers.append(Array("\(real)".utf8) + [0])
            case .text(let text): buffers.append(Array(text.utf8) + [0])
            case .blob(let bytes): buffers.append(bytes)
            }
            if case .blob = value { formats.append(1) } else { formats.append(0) }
        }
        let lengths = buffers.map { Int32($0?.count ?? 0) }
        let statement = number(sql)
        let result = withPointers(buffers) { pointers in
            PQexecParams(handle, statement, Int32(values.count), nil, pointers, lengths, formats, 0)
        }
        defer { PQclear(result) }
        let status = PQresultStatus(result)
        guard status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK else { throw failure(result, sql) }
        let changes = Int(String(cString: PQcmdTuples(result))) ?? 0
        let rowCount = PQntuples(result)
        let columnCount = PQnfields(result)
        var rows: [[SQLValue]] = []
        rows.reserveCapacity(Int(rowCount))
        let types = (0..<columnCount).map { Int(PQftype(result, $0)) }
        for row in 0..<rowCount {
            var values: [SQLValue] = []
            values.reserveCapacity(Int(columnCount))
            for column in 0..<columnCount {
                if PQgetisnull(result, row, column) == 1 {
                    values.append(.null)
                    continue
                }
                let text = String(cString: PQgetvalue(result, row, column))
                switch types[Int(column)] {
                case PUSHBUTTON_PG_INT8, PUSHBUTTON_PG_INT4, PUSHBUTTON_PG_INT2:
                    values.append(Int64(text).map { .integer($0) } ?? .text(text))
                case PUSHBUTTON_PG_FLOAT8, PUSHBUTTON_PG_FLOAT4, PUSHBUTTON_PG_NUMERIC:
                    values.append(Double(text).map { .real($0) } ?? .text(text))
                case PUSHBUTTON_PG_BOOL: values.append(.integer(text == "t" ? 1 : 0))
                case PUSHBUTTON_PG_BYTEA: values.append(.blob(Self.hexBytes(text)))
                default: values.append(.text(text))
                }
            }
            rows.append(values)
        }
        return (rows, changes)
    }

    private func withPointers<Result>(
        _ buffers: [[UInt8]?], _ body: ([UnsafePointer<CChar>?]) -> Result
    ) -> Result {
        // Copies that live until the call returns: libpq reads the parameters synchronously.
        let copies: [UnsafeMutablePointer<CChar>?] = buffers.map { buffer in
            guard let buffer else { return nil }
            let pointer = UnsafeMutablePointer<CChar>.allocate(capacity: max(buffer.count, 1))
            buffer.withUnsafeBytes { bytes in
                if let base = bytes.baseAddress { memcpy(pointer, base, buffer.count) }
            }
            return pointer
        }
        defer { for pointer in copies { pointer?.deallocate() } }
        return body(copies.map { $0.map { UnsafePointer($0) } })
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
