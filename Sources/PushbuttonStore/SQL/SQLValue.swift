/// A value bound to, or read from, an SQL statement, in either database.
public enum SQLValue: Sendable, Hashable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])

    var integer: Int64? {
        switch self {
        case .integer(let value): value
        case .real(let value): Int64(value)
        case .text(let text): Int64(text)
        default: nil
        }
    }
    var real: Double? {
        switch self {
        case .real(let value): value
        case .integer(let value): Double(value)
        case .text(let text): Double(text)
        default: nil
        }
    }
    var text: String? {
        switch self {
        case .text(let value): value
        case .integer(let value): String(value)
        default: nil
        }
    }
    var blob: [UInt8]? {
        switch self {
        case .blob(let value): value
        case .text(let text): Array(text.utf8)
        default: nil
        }
    }
    var isNull: Bool { self == .null }
}

extension Optional where Wrapped == String {
    var sql: SQLValue { map { .text($0) } ?? .null }
}

extension Optional where Wrapped == Int {
    var sql: SQLValue { map { .integer(Int64($0)) } ?? .null }
}

extension Optional where Wrapped == Int64 {
    var sql: SQLValue { map { .integer($0) } ?? .null }
}
