import Foundation
import PushbuttonSQLite

extension SQLGatewayStore {
    /// The space that must have come back since writes failed for want of it before a write is tried again.
    static let spaceToResume: UInt64 = 1 << 20

    /// For `/readyz`: the store answers (``ping()``) and can write. After a write failed for want of space or
    /// with an I/O error (SQLite), and none has committed since, it is not ready; traffic may have stopped by
    /// then (a load balancer stops sending to an instance that is not ready), so this tries one small write
    /// transaction, which makes it ready again when it commits. After a full disk that write waits until the
    /// file system has ``spaceToResume`` more bytes than at the failure: a small write can succeed in space the
    /// WAL already holds while the next campaign page would fail again.
    public func checkReady() throws(StoreError) {
        try ping()
        guard let health = pool.writeHealth.first(where: { $0.lastFailure != nil }),
            let failure = health.lastFailure
        else { return }
        let notReady = StoreError(
            "writes fail: \(failure.message) (SQLite code \(failure.code)); ready again once a write succeeds",
            context: "the store's last write")
        if SQLiteWriteHealth.meansNoSpace(failure.code), let before = health.availableAtFailure {
            guard let now = health.available, now >= before + Self.spaceToResume else { throw notReady }
        }
        do {
            try pool.with { connection throws(StoreError) in
                // user_version is unused by the store: setting it rewrites the header page, one page to commit.
                try connection.transaction { () throws(StoreError) in try connection.script("PRAGMA user_version = 0") }
            }
        } catch {
            throw notReady
        }
    }
}
