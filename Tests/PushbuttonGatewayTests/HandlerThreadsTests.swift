import Foundation
import PushbuttonTestSupport
import Testing

@testable import PushbuttonGateway

@Suite(.timeLimit(.minutes(5)))
struct HandlerThreadsTests {
    /// What a job captures (a worker's batch of outcomes, a page of recipients) is let go once the job ran,
    /// not kept in the queue until a thousand more jobs came.
    @Test func aJobThatRanNoLongerHoldsWhatItCaptured() async throws {
        final class Batch: Sendable {
            let bytes = [UInt8](repeating: 7, count: 1 << 20)
        }
        let threads = HandlerThreads(count: 2, name: "pb-test")
        weak var released: Batch?
        for _ in 0..<3 {
            let batch = Batch()
            released = batch
            let count = await threads.perform { () -> Int in batch.bytes.count }
            #expect(count == 1 << 20)
        }
        // The thread drops its own reference when the job returns, just after the caller resumed: a thread of its
        // own, which says nothing when it has.
        await yieldUntil { released == nil }
        #expect(released == nil)
        await threads.stop()
    }
}
