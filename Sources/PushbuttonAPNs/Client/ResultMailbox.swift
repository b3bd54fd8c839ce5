import Foundation

/// Results handed from the transport's thread to the bulk sender's loop, which takes them in batches:
/// one wake-up for many results rather than one per result.
final class ResultMailbox: @unchecked Sendable {
    // `@unchecked Sendable`: `results` and `waiting` are only reached under `lock`.
    typealias Item = (notification: APNsNotification, result: APNsResult, attempts: Int)
    private let lock = NSLock()
    private var results: [Item] = []
    private var waiting: CheckedContinuation<[Item], Never>?

    func put(_ item: Item) {
        lock.lock()
        guard let consumer = waiting else {
            results.append(item)
            lock.unlock()
            return
        }
        waiting = nil
        let batch = results + [item]
        results.removeAll(keepingCapacity: true)
        lock.unlock()
        consumer.resume(returning: batch)
    }

    /// Every result waiting now, possibly none.
    func takeAvailable() -> [Item] {
        lock.withLock {
            defer { results.removeAll(keepingCapacity: true) }
            return results
        }
    }

    /// Every result waiting, after waiting for at least one.
    func take() async -> [Item] {
        await withCheckedContinuation { continuation in
            lock.lock()
            if results.isEmpty {
                waiting = continuation
                lock.unlock()
                return
            }
            let batch = results
            results.removeAll(keepingCapacity: true)
            lock.unlock()
            continuation.resume(returning: batch)
        }
    }
}
