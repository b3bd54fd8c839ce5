import Foundation

/// A channel from a producer thread to an async consumer that holds at most `capacity` elements: the
/// producer blocks when it is full. This is the backpressure `AsyncStream` lacks (its buffer grows without
/// bound when the producer is faster), so a bulk send's memory stays flat whatever its input's length.
///
/// `@unchecked Sendable`: every stored property is reached under `lock`.
public final class BoundedChannel<Element: Sendable>: AsyncSequence, @unchecked Sendable {
    private let lock = NSCondition()
    private var buffer: [Element] = []
    private var waiting: CheckedContinuation<Element?, Never>?
    private var finished = false
    private let capacity: Int

    public init(capacity: Int) {
        self.capacity = Swift.max(1, capacity)
    }

    /// Adds an element, blocking the calling (non-async) thread while the channel is full.
    public func send(_ element: Element) {
        lock.lock()
        while buffer.count >= capacity && waiting == nil { lock.wait() }
        if let consumer = waiting {
            waiting = nil
            lock.unlock()
            consumer.resume(returning: element)
            return
        }
        buffer.append(element)
        lock.unlock()
    }

    /// No more elements will come.
    public func finish() {
        lock.lock()
        finished = true
        let consumer = waiting
        waiting = nil
        lock.unlock()
        consumer?.resume(returning: nil)
    }

    private func next() async -> Element? {
        await withCheckedContinuation { (continuation: CheckedContinuation<Element?, Never>) in
            lock.lock()
            if !buffer.isEmpty {
                let element = buffer.removeFirst()
                lock.signal()
                lock.unlock()
                continuation.resume(returning: element)
            } else if finished {
                lock.unlock()
                continuation.resume(returning: nil)
            } else {
                waiting = continuation
                lock.signal()
                lock.unlock()
            }
        }
    }

    public struct AsyncIterator: AsyncIteratorProtocol {
        let channel: BoundedChannel
        public mutating func next() async -> Element? { await channel.next() }
    }

    public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(channel: self) }
}
