import Foundation
import PushbuttonTestSupport
import Synchronization
import Testing

@testable import PushbuttonAPNs

/// Work deferred to the end of an event loop's turn (``LoopTurn``), and the result sinks that use it.
@Suite(.timeLimit(.minutes(5))) struct LoopTurnTests {
    final class Counter: LoopTurnObserver {
        let ended = Atomic<Int>(0)
        func turnEnded() { ended.add(1, ordering: .relaxed) }
    }

    final class Flag: Sendable {
        let value = Atomic<Bool>(false)
        var isSet: Bool { value.load(ordering: .relaxed) }
        func set() { value.store(true, ordering: .relaxed) }
    }

    /// Runs `body` on a thread of its own (a turn is per thread) and waits for it.
    static func onThread(_ body: @escaping @Sendable () -> Void) async {
        await withCheckedContinuation { continuation in
            Thread {
                body()
                continuation.resume()
            }.start()
        }
    }

    @Test func aTurnCallsEachDeferredObserverOnceAsItEndsAndOnlyOnItsThread() async {
        let counter = Counter()
        await Self.onThread {
            #expect(LoopTurn.current == nil)
            let turn = LoopTurn()
            turn.install()
            #expect(LoopTurn.current === turn)
            turn.deferToEnd(counter)
            turn.deferToEnd(counter)
            #expect(counter.ended.load(ordering: .relaxed) == 0)
            turn.end()
            #expect(counter.ended.load(ordering: .relaxed) == 2)
            turn.end()  // nothing deferred: nothing called
            #expect(counter.ended.load(ordering: .relaxed) == 2)
            turn.deferToEnd(counter)
            turn.uninstall()  // ends the turn
            #expect(counter.ended.load(ordering: .relaxed) == 3)
            #expect(LoopTurn.current == nil)
        }
        #expect(LoopTurn.current == nil)
    }

    @Test func resultsThatArriveDuringATurnReachTheWaitingConsumerAtItsEndInOneBatch() async throws {
        let mailbox = ResultMailbox()
        let notifications = try (0..<3).map { _ in try APNsClientLifecycleTests.notification() }
        let taken = Flag()
        let consumer = Task {
            let batch = await mailbox.take()
            taken.set()
            return batch
        }
        // The consumer waits before the results come.
        await yieldUntil { mailbox.hasWaitingConsumer }
        let wokenEarly = Flag()
        await Self.onThread {
            let turn = LoopTurn()
            turn.install()
            for notification in notifications {
                mailbox.finished(notification, .delivered(apnsID: notification.apnsID, uniqueID: nil), attempts: 1)
            }
            // Still waiting with every result in: the turn holds them back until it ends.
            if taken.isSet || !mailbox.hasWaitingConsumer { wokenEarly.set() }
            turn.uninstall()
        }
        let batch = await consumer.value
        #expect(!wokenEarly.isSet)
        #expect(batch.map(\.notification.apnsID) == notifications.map(\.apnsID))
    }
}
