import Foundation
import Pushbutton
import PushbuttonSupport
import PushbuttonTestSupport
import Synchronization
import Testing

@testable import PushbuttonAPNs

/// The bulk send whose results go to a synchronous handler where they complete (``DirectBulkPump``).
@Suite(.timeLimit(.minutes(5))) struct DirectBulkPumpTests {
    typealias Scripted = APNsClientLifecycleTests.ScriptedTransport

    /// Results handed over from any thread, collected under a lock — a pthread one (`Locked`): the thread
    /// sanitizer cannot see `Synchronization.Mutex`'s futex and reported a race here in `make test-tsan`.
    final class Collected: Sendable {
        let results = Locked<[UUID: (result: APNsResult, attempts: Int)]>([:])
        let duplicates = Atomic<Int>(0)
        /// Told of every result, for a test to await a count.
        let changed = ChangeSignal()

        func add(_ notification: APNsNotification, _ result: APNsResult, _ attempts: Int) {
            let repeated = results.withLock { $0.updateValue((result, attempts), forKey: notification.apnsID) != nil }
            if repeated { duplicates.add(1, ordering: .relaxed) }
            changed.notify()
        }

        var count: Int { results.withLock { $0.count } }
    }

    @Test func everyNotificationHasOneResultWithinTheWindowBeforeTheSendReturns() async throws {
        let transport = Scripted(statuses: [503, 503], delay: .milliseconds(1))
        let client = APNsClient(
            transport: transport, tokens: nil, retryPolicy: RetryPolicy(baseBackoff: .milliseconds(1)))
        let channel = BoundedChannel<APNsNotification>(capacity: 8)
        let notifications = try (0..<500).map { _ in try APNsClientLifecycleTests.notification() }
        let producer = Thread {
            for (index, notification) in notifications.enumerated() {
                // Sleeps by design: the input runs dry now and then (its shape, not a wait; no result depends on it).
                if index % 100 == 0 { usleep(2000) }
                channel.send(notification)
            }
            channel.finish()
        }
        producer.start()
        let collected = Collected()
        await client.send(polling: channel, maximumInFlight: 8) { collected.add($0, $1, $2) }
        // Counted as the send returns: no result comes after it.
        #expect(collected.count == 500)
        #expect(collected.duplicates.load(ordering: .relaxed) == 0)
        let results = collected.results.withLock { $0 }
        #expect(Set(results.keys) == Set(notifications.map(\.apnsID)))
        #expect(results.values.filter(\.result.isDelivered).count == 500)
        // Two 503s, each retried once: two requests more than notifications, and two results of 2 attempts.
        #expect(transport.requests.load(ordering: .relaxed) == 502)
        #expect(results.values.filter { $0.attempts == 2 }.count == 2)
        #expect(transport.mostUnderWay.load(ordering: .relaxed) <= 8)
    }

    @Test func inputThatTricklesInIsStartedAsItComes() async throws {
        let transport = Scripted(holdUntil: 5)
        let client = APNsClient(transport: transport, tokens: nil)
        let channel = BoundedChannel<APNsNotification>(capacity: 8)
        let notifications = try (0..<5).map { _ in try APNsClientLifecycleTests.notification() }
        BulkPumpTests.trickle(notifications, into: channel, seenBy: transport)
        let collected = Collected()
        await client.send(polling: channel, maximumInFlight: 8) { collected.add($0, $1, $2) }
        #expect(collected.count == 5)
        // All five were under way together: none waited for an earlier one's answer.
        #expect(transport.mostUnderWay.load(ordering: .relaxed) == 5)
    }

    @Test func anInputThatIsAlreadyOverEndsTheSendAtOnce() async {
        let client = APNsClient(transport: Scripted(), tokens: nil)
        let channel = BoundedChannel<APNsNotification>(capacity: 8)
        channel.finish()
        let collected = Collected()
        await client.send(polling: channel, maximumInFlight: 8) { collected.add($0, $1, $2) }
        #expect(collected.count == 0)
    }

    @Test func cancellingTheTaskStopsReadingAndFinishesWhatIsUnderWay() async throws {
        let transport = Scripted(delay: .milliseconds(20))
        let client = APNsClient(transport: transport, tokens: nil)
        let channel = BoundedChannel<APNsNotification>(capacity: 10_000)
        let notifications = try (0..<10_000).map { _ in try APNsClientLifecycleTests.notification() }
        let producer = Thread {
            for notification in notifications { channel.send(notification) }
            channel.finish()
        }
        producer.start()
        let collected = Collected()
        let task = Task { await client.send(polling: channel, maximumInFlight: 4) { collected.add($0, $1, $2) } }
        await collected.changed.wait { collected.count >= 8 }
        task.cancel()
        await task.value
        let count = collected.count
        #expect(count >= 8 && count < 10_000)
        // Nothing was left under way: every request sent has its result.
        #expect(transport.requests.load(ordering: .relaxed) == count)
        #expect(collected.results.withLock { $0.values.allSatisfy(\.result.isDelivered) })
    }
}
