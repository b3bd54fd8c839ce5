import Foundation

#if canImport(SQLite3)
    internal import SQLite3
#else
    internal import CSQLite
#endif

/// Whether writes to a database work, as its connection has seen them: the last write that failed for want of
/// space (`SQLITE_FULL`) or with an I/O error (`SQLITE_IOERR`), kept until a write commits again, with the
/// space the file system had left at that moment.
///
/// `/readyz` reads it from another thread than the connection's (the gateway must stop taking writes while
/// its disk is full, red-team L7 in issue 32).
package final class SQLiteWriteHealth: @unchecked Sendable {
    // Safe: every stored property is only reached under `lock`.
    private let lock = NSLock()
    private var failure: SQLiteError?
    private var spaceAtFailure: UInt64?
    private let directory: String
    private var measureSpace: @Sendable (String) -> UInt64?

    /// The failure of a database in `directory`.
    package init(directory: String) {
        self.directory = directory
        measureSpace = Self.availableBytes
    }

    /// The last write failure since the last commit, if any.
    package var lastFailure: SQLiteError? { lock.withLock { failure } }

    /// The bytes the file system had for this user when writes last failed for want of space.
    package var availableAtFailure: UInt64? { lock.withLock { spaceAtFailure } }

    /// The bytes the database's file system has for this user now (`nil`: unknown).
    package var available: UInt64? {
        let measure = lock.withLock { measureSpace }
        return measure(directory)
    }

    /// Replaces how free space is measured (tests).
    package func measureSpace(with measure: @escaping @Sendable (String) -> UInt64?) {
        lock.withLock { measureSpace = measure }
    }

    /// Notes a failed statement; kept when it means writes fail (no space, an I/O error).
    package func noteFailure(_ error: SQLiteError) {
        guard Self.meansWritesFail(error.code) else { return }
        let space = error.code & 0xff == SQLITE_FULL ? available : nil
        lock.withLock {
            failure = error
            spaceAtFailure = space
        }
    }

    /// Notes a committed write: writes work.
    package func noteCommit() {
        lock.withLock {
            failure = nil
            spaceAtFailure = nil
        }
    }

    /// Whether `code` (primary or extended) says the disk is full or failing.
    package static func meansWritesFail(_ code: Int32) -> Bool {
        let primary = code & 0xff
        return primary == SQLITE_FULL || primary == SQLITE_IOERR
    }

    /// Whether `code` (primary or extended) says the disk is full.
    package static func meansNoSpace(_ code: Int32) -> Bool { code & 0xff == SQLITE_FULL }

    @Sendable private static func availableBytes(_ directory: String) -> UInt64? {
        var status = statvfs()
        guard statvfs(directory, &status) == 0 else { return nil }
        return UInt64(status.f_bavail) * UInt64(status.f_frsize)
    }
}
