import Foundation
import PushbuttonTestSupport
import Synchronization
import Testing

@testable import PushbuttonAPNs

/// ``BoundedChannel/send(contentsOf:)``: a batch handed over under one lock keeps order and the bound, and wakes
/// an async consumer and a poller as single elements do; its elements are moved out, `nil`s skipped.
@Suite(.timeLimit(.minutes(5))) struct BoundedChannelBatchTests {
    @Test func batchesKeepOrderAndEmptyTheBatch() async {
        let channel = BoundedChannel<Int>(capacity: 100)
        let producer = Thread {
            var batch: [Int?] = []
            for number in 0..<5000 {
                batch.append(number)
                if batch.count == 256 {
                    channel.send(contentsOf: &batch)
                    precondition(batch.isEmpty)
                }
            }
            channel.send(contentsOf: &batch)
            channel.finish()
        }
        producer.start()
        var received: [Int] = []
        for await number in channel { received.append(number) }
        #expect(received == Array(0..<5000))
    }

    @Test func aBatchLargerThanTheCapacityWaitsForRoom() async throws {
        let channel = BoundedChannel<Int>(capacity: 10)
        let done = Atomic<Bool>(false)
        let producer = Thread {
            var batch: [Int?] = Array(0..<30)
            channel.send(contentsOf: &batch)
            done.store(true, ordering: .releasing)
        }
        producer.start()
        // Nothing taken: the producer fills the channel and waits, never holding more than its capacity.
        await yieldUntil { channel.buffered >= 10 }
        #expect(channel.buffered == 10)
        let finished = done.load(ordering: .acquiring)
        #expect(!finished)
        var polled: [Int] = []
        while polled.count < 10, let element = channel.pollElement().element { polled.append(element) }
        #expect(polled == Array(0..<10))
        var received = polled
        var iterator = channel.makeAsyncIterator()
        while received.count < 30, let number = await iterator.next() { received.append(number) }
        #expect(received == Array(0..<30))
        channel.finish()
    }

    @Test func aBatchWakesAPollerThatFoundNothing() async throws {
        let channel = BoundedChannel<Int>(capacity: 64)
        let woken = Atomic<Int>(0)
        let sent = Atomic<Bool>(false)
        let changed = ChangeSignal()
        channel.onAvailableAfterEmptyPoll { woken.add(1, ordering: .relaxed) }
        #expect(channel.pollElement().element == nil)
        let producer = Thread {
            var batch: [Int?] = [1, nil, 2, 3]
            channel.send(contentsOf: &batch)
            sent.store(true, ordering: .releasing)
            changed.notify()
        }
        producer.start()
        // The whole batch is in: one wake for it, not one per element.
        await changed.wait { sent.load(ordering: .acquiring) }
        let wakes = woken.load(ordering: .relaxed)
        #expect(wakes == 1)
        #expect(channel.pollElement().element == 1)
        #expect(channel.pollElement().element == 2)
        #expect(channel.pollElement().element == 3)
        channel.finish()
    }
}
