import Foundation

/// A channel from a producer thread to an async consumer that holds at most `capacity` elements: the
/// producer blocks when it is full. This is the backpressure `AsyncStream` lacks (its buffer grows without
/// bound when the producer is faster), so a bulk send's memory stays flat whatever its input's length.
///
/// `@unchecked Sendable`: every stored property is reached under `lock`.
public final class BoundedChannel<Element: Sendable>: AsyncSequence, @unchecked Sendable {
    private let lock = NSCondition()
    /// A ring of slots, grown on demand up to `capacity` (a huge capacity allocates nothing up front):
    /// taking the oldest element moves nothing.
    private var slots: [Element?]
    private var head = 0
    private var count = 0
    private var waiting: UnsafeContinuation<Element?, Never>?
    private var finished = false
    /// Whether the last poll found nothing, and `availabilityHandler` should hear of the next element.
    private var pollerWaiting = false
    private var availabilityHandler: (@Sendable () -> Void)?
    private let capacity: Int

    /// A channel holding at most `capacity` elements (at least 1).
    public init(capacity: Int) {
        self.capacity = Swift.max(1, capacity)
        slots = Array(repeating: nil, count: Swift.min(self.capacity, 64))
    }

    /// Adds an element, blocking the calling (non-async) thread while the channel is full. Not for async
    /// code: blocking one of the few cooperative threads can stall the consumer it waits for.
    @available(
        *, noasync, message: "send blocks its thread while the channel is full: call it from a thread of its own"
    )
    public func send(_ element: Element) {
        lock.lock()
        while count >= capacity && waiting == nil { lock.wait() }
        if let consumer = waiting {
            waiting = nil
            lock.unlock()
            consumer.resume(returning: element)
            return
        }
        if count == slots.count { grow() }
        slots[(head + count) % slots.count] = element
        count += 1
        let notify = takeAvailabilityNotice()
        lock.unlock()
        notify?()
    }

    /// Adds the elements of `batch` in order, each moved out of it (no copy to retain and release), under one
    /// lock per wait rather than one per element, blocking the calling (non-async) thread while the channel is
    /// full; `batch` is left empty, its storage kept for the next one. A producer that reads fast fills a
    /// local batch and hands it over whole: the lock, and the cache line it lives on, change threads once per
    /// batch. (Optional elements so that each can be taken out in place; `nil`s are skipped.)
    @available(
        *, noasync, message: "send blocks its thread while the channel is full: call it from a thread of its own"
    )
    package func send(contentsOf batch: inout [Element?]) {
        sendBatch(&batch)
    }

    /// ``send(contentsOf:)``'s work, here so that the module's own concrete callers get it specialized (a caller
    /// in another module would otherwise move each element through the runtime's value witnesses).
    @inline(__always)
    fileprivate func sendBatch(_ batch: inout [Element?]) {
        var index = 0
        let end = batch.count
        lock.lock()
        while index < end {
            while count >= capacity && waiting == nil { lock.wait() }
            if let consumer = waiting {
                let element = batch[index].take()
                index += 1
                guard element != nil else { continue }
                waiting = nil
                lock.unlock()
                consumer.resume(returning: element)
                lock.lock()
                continue
            }
            while index < end && count < capacity {
                if count == slots.count { grow() }
                let slot = (head + count) % slots.count
                // Moved from the batch to the ring through their storage: no copy to retain and release.
                let moved = batch.withUnsafeMutableBufferPointer { source in
                    slots.withUnsafeMutableBufferPointer { ring in
                        let element = (source.baseAddress! + index).move()
                        (source.baseAddress! + index).initialize(to: nil)
                        let isElement = element != nil
                        ring[slot] = consume element
                        return isElement
                    }
                }
                if moved { count += 1 }
                index += 1
            }
            if let notify = takeAvailabilityNotice() {
                lock.unlock()
                notify()
                lock.lock()
            }
        }
        lock.unlock()
        batch.removeAll(keepingCapacity: true)
    }

    /// No more elements will come.
    public func finish() {
        lock.lock()
        finished = true
        let consumer = waiting
        waiting = nil
        let notify = takeAvailabilityNotice()
        lock.unlock()
        consumer?.resume(returning: nil)
        notify?()
    }

    private func next() async -> Element? {
        // The common case in a bulk send, where the reader keeps ahead: an element is there, taken
        // without a continuation (which would cost an allocation and a suspension per element).
        if let element = takeIfAny() { return element }
        return await withUnsafeContinuation { (continuation: UnsafeContinuation<Element?, Never>) in
            lock.lock()
            if count > 0 {
                let element = takeFirst()
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

    private func takeIfAny() -> Element? {
        lock.withLock { count > 0 ? takeFirst() : nil }
    }

    /// How many elements wait in the channel now (for tests: a producer blocked on a full channel shows as
    /// the capacity here).
    var buffered: Int { lock.withLock { count } }

    /// The oldest element if there is one, without waiting: `nil` and whether the channel is finished.
    func pollElement() -> (element: Element?, finished: Bool) {
        lock.withLock {
            if count > 0 { return (takeFirst(), false) }
            pollerWaiting = !finished
            return (nil, finished)
        }
    }

    /// Called (on the producer's thread) when an element or the end arrives after a ``pollElement()``
    /// found the channel empty: a poller that has nothing else to wake it learns of it.
    func onAvailableAfterEmptyPoll(_ handler: @escaping @Sendable () -> Void) {
        lock.withLock { availabilityHandler = handler }
    }

    /// The handler to call now, if a poller waits for it. Called under `lock`.
    private func takeAvailabilityNotice() -> (@Sendable () -> Void)? {
        guard pollerWaiting else { return nil }
        pollerWaiting = false
        return availabilityHandler
    }

    /// Removes the oldest element; wakes a producer waiting for room once half the channel is free, so a
    /// producer that keeps it full wakes once per half a channel, not once per element. Called under `lock`.
    private func takeFirst() -> Element? {
        let element = slots[head].take()  // moved out: no copy to retain and release
        head = (head + 1) % slots.count
        count -= 1
        if count <= capacity / 2 { lock.signal() }
        return element
    }

    /// Doubles the ring (up to `capacity`), moving the elements to its start. Called under `lock`.
    private func grow() {
        let size = Swift.min(capacity, slots.count * 2)
        var grown = [Element?](repeating: nil, count: size)
        for offset in 0..<count { grown[offset] = slots[(head + offset) % slots.count] }
        slots = grown
        head = 0
    }

    /// Takes the channel's elements in order, waiting while it is empty.
    public struct AsyncIterator: AsyncIteratorProtocol {
        let channel: BoundedChannel
        /// The next element, or `nil` once the channel is finished and empty.
        public mutating func next() async -> Element? { await channel.next() }
    }

    /// An iterator over the channel; the channel has one consumer, so make one iterator.
    public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(channel: self) }
}

extension BoundedChannel where Element == APNsNotification {
    /// ``send(contentsOf:)`` specialized for notifications: the sender's input thread calls it from
    /// another module, where the generic one would go through the runtime per notification.
    @available(
        *, noasync, message: "send blocks its thread while the channel is full: call it from a thread of its own"
    )
    package func send(contentsOf batch: inout [APNsNotification?]) {
        sendBatch(&batch)
    }
}

extension BoundedChannel: SynchronousNotificationSource where Element == APNsNotification {
    package func poll() -> NotificationPoll {
        let (element, finished) = pollElement()
        if let element { return .notification(element) }
        return finished ? .finished : .empty
    }

    package func onAvailable(_ handler: @escaping @Sendable () -> Void) {
        onAvailableAfterEmptyPoll(handler)
    }
}
