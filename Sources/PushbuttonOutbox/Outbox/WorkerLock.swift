import Foundation
import PushbuttonSQLite

/// The one-delivery-worker rule, enforced with an advisory `flock` on `<database>.worker-lock`.
///
/// The kernel releases the lock when its holder exits in any way, SIGKILL included, so the next worker to
/// take it knows that any entry still marked in flight was orphaned by a dead worker and can be re-sent.
final class WorkerLock {
    private let descriptor: Int32

    /// Takes the lock, or returns `nil` when another process holds it.
    init?(databasePath: String) throws(OutboxError) {
        let path = databasePath + ".worker-lock"
        let descriptor = open(path, O_CREAT | O_RDWR | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw OutboxError.storage(
                SQLiteError(code: 14, message: String(cString: strerror(errno)), context: "opening \(path)"))
        }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            close(descriptor)
            return nil
        }
        self.descriptor = descriptor
    }

    deinit {
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }
}
