import Foundation
import PushbuttonAPNs
import PushbuttonSupport
import Synchronization

/// What `send` knows of its input while it reads it: where each notification came from (so its result
/// line can name the input line and echo the line's `id`), how much was read, and how big the input is
/// (so progress can estimate a total before the end of a token file is reached).
final class SendInput: Sendable {
    /// The input line of a notification under way, and the `id` its NDJSON line carried.
    struct Origin: Sendable {
        var line: Int
        var id: String?
        /// The environment its line named (with --apps).
        var environment: String?
    }

    private let origins = Locked<[Key: Origin]>([:])

    /// An apns-id as a dictionary key: hashed as one 64-bit word (the ids are random, or the input's own,
    /// and compared in full on equal hashes), which costs less than hashing UUID's 16 bytes one by one
    /// per notification (twice: remembered, then taken).
    private struct Key: Hashable {
        let high: UInt64
        let low: UInt64

        init(_ id: UUID) {
            (high, low) = withUnsafeBytes(of: id.uuid) {
                ($0.load(as: UInt64.self), $0.load(fromByteOffset: 8, as: UInt64.self))
            }
        }

        func hash(into hasher: inout Hasher) {
            hasher.combine(high ^ low)
        }
    }
    /// Notifications (and invalid lines) read so far.
    let read = Atomic<Int>(0)
    let bytesRead = Atomic<Int>(0)
    /// Whether the whole input was read.
    let finished = Atomic<Bool>(false)
    /// The input's size in bytes when it is a regular file (a token file, or standard input redirected).
    let size: Int?

    init(size: Int?) {
        self.size = size
    }

    /// The size of the file at `path`, or of standard input (`nil`) when it is a regular file.
    static func fileSize(_ path: String?) -> Int? {
        var info = stat()
        let found = path.map { stat($0, &info) == 0 } ?? (fstat(STDIN_FILENO, &info) == 0)
        guard found, (info.st_mode & S_IFMT) == S_IFREG, info.st_size > 0 else { return nil }
        return Int(info.st_size)
    }

    /// The environment a notification under way was sent to (its line's), without forgetting its origin.
    func environment(of id: UUID) -> String? {
        origins.withLock { $0[Key(id)]?.environment }
    }

    func remember(_ id: UUID, _ origin: Origin) {
        origins.withLock { $0[Key(id)] = origin }
    }

    /// The origin of a finished notification: its ``PushbuttonAPNs/APNsNotification/inputLine`` when it
    /// carries one (a line with neither `id` nor `environment`), else the one remembered, forgotten as it is
    /// returned (memory stays bounded by what is under way).
    func take(_ notification: APNsNotification) -> Origin? {
        if notification.inputLine > 0 { return Origin(line: notification.inputLine) }
        return origins.withLock { $0.removeValue(forKey: Key(notification.apnsID)) }
    }

    /// The number of notifications the input holds: exact once it was read to the end, else estimated from
    /// the bytes read so far and the file's size, else unknown.
    var estimatedTotal: (count: Int, exact: Bool)? {
        let read = read.load(ordering: .relaxed)
        if finished.load(ordering: .acquiring) { return (read, true) }
        let bytes = bytesRead.load(ordering: .relaxed)
        guard let size, bytes > 0, read > 0 else { return nil }
        return (max(read, Int((Double(read) * Double(size) / Double(bytes)).rounded())), false)
    }
}
