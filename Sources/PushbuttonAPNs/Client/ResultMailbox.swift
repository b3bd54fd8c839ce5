import Foundation

/// Results handed from the transport's thread to the bulk sender's loop, which takes them in batches:
/// one wake-up for many results rather than one per result. A result that arrives on an event loop's thread
/// wakes the consumer at the end of the loop's turn (``LoopTurn``), with every answer of that turn.
final class ResultMailbox: DeliverySink, LoopTurnObserver, @unchecked Sendable {
    // `@unchecked Sendable`: `results`, `spare`, `waiting` and `wakeDeferred` are only reached under `lock`.
    typealias Item = (notification: APNsNotification, result: APNsResult, attempts: Int)
    private let lock = NSLock()
    private var results: [Item] = []
    /// The array the consumer handed back, reused as the next batch's storage.
    private var spare: [Item] = []
    private var waiting: UnsafeContinuation<[Item], Never>?
    /// Whether a loop's turn will wake the consumer as it ends.
    private var wakeDeferred = false

    func finished(_ delivery: Delivery, _ result: APNsResult, attempts: Int) {
        finished(delivery.notification, result, attempts: attempts)
    }

    /// Takes one result (a delivery's, or one that failed before any delivery).
    func finished(_ notification: APNsNotification, _ result: APNsResult, attempts: Int) {
        lock.lock()
        results.append((notification, result, attempts))
        guard let consumer = waiting else { return lock.unlock() }
        if let turn = LoopTurn.current {
            let first = !wakeDeferred
            wakeDeferred = true
            lock.unlock()
            if first { turn.deferToEnd(self) }
            return
        }
        waiting = nil
        let batch = swapOut()
        lock.unlock()
        consumer.resume(returning: batch)
    }

    func turnEnded() {
        lock.lock()
        wakeDeferred = false
        guard let consumer = waiting, !results.isEmpty else { return lock.unlock() }
        waiting = nil
        let batch = swapOut()
        lock.unlock()
        consumer.resume(returning: batch)
    }

    /// Whether a consumer waits in ``take()`` now (for tests: it has not been handed a batch yet).
    var hasWaitingConsumer: Bool { lock.withLock { waiting != nil } }

    /// Every result waiting now, possibly none.
    func takeAvailable() -> [Item] {
        lock.withLock { results.isEmpty ? [] : swapOut() }
    }

    /// Every result waiting, after waiting for at least one.
    func take() async -> [Item] {
        let ready = takeAvailable()
        if !ready.isEmpty { return ready }
        return await withUnsafeContinuation { continuation in
            lock.lock()
            if results.isEmpty {
                waiting = continuation
                lock.unlock()
                return
            }
            let batch = swapOut()
            lock.unlock()
            continuation.resume(returning: batch)
        }
    }

    /// Gives a consumed batch's storage back, so batches stop allocating once they have grown.
    func recycle(_ batch: inout [Item]) {
        batch.removeAll(keepingCapacity: true)
        lock.withLock { if spare.capacity < batch.capacity { swap(&spare, &batch) } }
    }

    /// The results, leaving the spare storage in their place. Called under `lock`.
    private func swapOut() -> [Item] {
        var batch = spare
        spare = []
        swap(&batch, &results)
        return batch
    }
}
