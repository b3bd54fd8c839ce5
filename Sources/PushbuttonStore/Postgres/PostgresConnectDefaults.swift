internal import CPostgreSQL
import Foundation

/// Connects with libpq, with defaults a long-running server needs that libpq's own lack: without a connect
/// timeout, a black-holed server (a partition, a dead host whose address still routes) holds a connect for the
/// kernel's TCP timeout, minutes; without keepalives, a session whose server vanished is found only when the
/// next statement is sent into it. The store's URL (or `key=value` string) wins over each default it names.
enum PostgresConnectDefaults {
    /// In the order libpq takes them: the URL comes after, so what it names overrides these.
    static let parameters: [(keyword: String, value: String)] = [
        ("connect_timeout", "10"),
        ("keepalives", "1"),
        ("keepalives_idle", "30"),
        ("keepalives_interval", "10"),
        ("keepalives_count", "3"),
        ("application_name", "pushbutton"),
    ]

    /// `PQconnectdbParams` with ``parameters`` and then `url` expanded as a connection string.
    static func connect(_ url: String) -> OpaquePointer? {
        let all = parameters + [("dbname", url)]
        let keywords = all.map { strdup($0.keyword) }
        let values = all.map { strdup($0.value) }
        defer {
            for pointer in keywords + values { free(pointer) }
        }
        let keywordPointers: [UnsafePointer<CChar>?] = keywords.map { $0.map { UnsafePointer($0) } } + [nil]
        let valuePointers: [UnsafePointer<CChar>?] = values.map { $0.map { UnsafePointer($0) } } + [nil]
        return PQconnectdbParams(keywordPointers, valuePointers, 1)
    }
}
