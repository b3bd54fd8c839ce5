import Foundation
import Pushbutton
import PushbuttonSupport
import PushbuttonTestSupport
import Synchronization
import Testing

@testable import PushbuttonAPNs

/// Cancellation and input errors, over a transport that answers from a script (no network).
@Suite(.timeLimit(.minutes(5))) struct APNsClientLifecycleTests {
    /// Answers each request with the next status of its script (then 200), after `delay`; with `holdUntil`, once
    /// that many requests have come; with `holding`, once ``release()`` is called. Counts requests.
    final class ScriptedTransport: APNsTransport, @unchecked Sendable {
        // `@unchecked Sendable`: `statuses` is reached under `lock` only (an NSLock, which the thread
        // sanitizer follows; it reported the script's array under a Mutex as raced).
        private let lock = NSLock()
        private var statuses: [Int]
        let requests = Atomic<Int>(0)
        /// Told of every request, for a test to await one.
        let requested = ChangeSignal()
        /// Signalled once per request, for a producer thread to block on.
        let arrivals = DispatchSemaphore(value: 0)
        let underWay = Atomic<Int>(0)
        let mostUnderWay = Atomic<Int>(0)
        let delay: Duration
        let holdUntil: Int?
        private let held: Locked<Bool>

        init(statuses: [Int] = [], delay: Duration = .zero, holdUntil: Int? = nil, holding: Bool = false) {
            self.statuses = statuses
            self.delay = delay
            self.holdUntil = holdUntil
            held = Locked(holding)
        }

        /// Lets held answers go.
        func release() {
            held.withLock { $0 = false }
            requested.notify()
        }

        func send(_ request: HTTPRequest) async throws(APNsError) -> HTTPResponse {
            requests.add(1, ordering: .relaxed)
            let now = underWay.add(1, ordering: .relaxed).newValue
            mostUnderWay.max(now, ordering: .relaxed)
            defer { underWay.subtract(1, ordering: .relaxed) }
            requested.notify()  // once it counts as under way, for a waiter that checks
            arrivals.signal()
            // Sleeps by design: the double stands for a server that takes `delay` to answer (not a test waiting).
            if delay > .zero { try? await Task.sleep(for: delay) }
            if let holdUntil { await requested.wait { requests.load(ordering: .relaxed) >= holdUntil } }
            await requested.wait { !held.withLock { $0 } }
            let status = lock.withLock { statuses.isEmpty ? 200 : statuses.removeFirst() }
            let body = status == 200 ? [] : Array(#"{"reason":"ServiceUnavailable"}"#.utf8)
            return HTTPResponse(status: status, headers: [:], body: body)
        }

        func shutdown() async {}
    }

    struct InputFailed: Error, Equatable {}

    /// Yields `count` notifications, then throws.
    struct FailingInput: AsyncSequence, Sendable {
        let notifications: [APNsNotification]

        struct AsyncIterator: AsyncIteratorProtocol {
            var remaining: [APNsNotification]
            mutating func next() async throws -> APNsNotification? {
                guard !remaining.isEmpty else { throw InputFailed() }
                return remaining.removeFirst()
            }
        }

        func makeAsyncIterator() -> AsyncIterator { AsyncIterator(remaining: notifications) }
    }

    static func notification() throws -> APNsNotification {
        APNsNotification(
            deviceToken: try DeviceToken(String(repeating: "ab", count: 32)), payload: Array(#"{"aps":{}}"#.utf8),
            topic: "com.example.app")
    }

    @Test func aSendInACancelledTaskEndsAsCancelledWithoutARequest() async throws {
        let transport = ScriptedTransport()
        let client = APNsClient(transport: transport, tokens: nil)
        let notification = try Self.notification()
        let task = Task {
            while !Task.isCancelled { await Task.yield() }
            return await client.send(notification)
        }
        task.cancel()
        #expect(
            await task.value
                == .failed(
                    apnsID: notification.apnsID, attempts: 0,
                    lastCause: APNsError(.cancelled, "cancelled before it was sent")))
        #expect(transport.requests.load(ordering: .relaxed) == 0)
    }

    @Test func aCancelledSendFinishesItsAttemptButDoesNotRetry() async throws {
        let transport = ScriptedTransport(statuses: [503], holding: true)
        let client = APNsClient(
            transport: transport, tokens: nil, retryPolicy: RetryPolicy(baseBackoff: .milliseconds(1)))
        let notification = try Self.notification()
        let task = Task { await client.send(notification) }
        await transport.requested.wait { transport.requests.load(ordering: .relaxed) > 0 }
        // The attempt is under way, its answer held back until the cancel has come.
        task.cancel()
        transport.release()
        #expect(
            await task.value
                == .failed(
                    apnsID: notification.apnsID, attempts: 1,
                    lastCause: APNsError(.cancelled, "cancelled before a retry (503 ServiceUnavailable)")))
        #expect(transport.requests.load(ordering: .relaxed) == 1)
    }

    @Test func aBulkSendReportsWhatWasReadThenThrowsTheInputsError() async throws {
        let client = APNsClient(transport: ScriptedTransport(), tokens: nil)
        let notifications = try (0..<3).map { _ in try Self.notification() }
        var results: [UUID: APNsResult] = [:]
        await #expect(throws: InputFailed.self) {
            try await client.send(FailingInput(notifications: notifications), maximumInFlight: 2) {
                results[$0.apnsID] = $1
            }
        }
        #expect(Set(results.keys) == Set(notifications.map(\.apnsID)))
        #expect(results.values.filter(\.isDelivered).count == 3)
    }

    @Test func aBulkSendInACancelledTaskStopsReadingAndFinishesWhatIsUnderWay() async throws {
        let client = APNsClient(transport: ScriptedTransport(delay: .milliseconds(20)), tokens: nil)
        let input = AsyncStream<APNsNotification> { continuation in
            for _ in 0..<10_000 { continuation.yield(try! Self.notification()) }
            continuation.finish()
        }
        let reported = Atomic<Int>(0)
        let changed = ChangeSignal()
        let task = Task {
            await client.send(input, maximumInFlight: 4) { _, result in
                if result.isDelivered { reported.add(1, ordering: .relaxed) }
                changed.notify()
            }
        }
        await changed.wait { reported.load(ordering: .relaxed) >= 8 }
        task.cancel()
        await task.value
        let count = reported.load(ordering: .relaxed)
        #expect(count >= 8 && count < 10_000)
    }
}

/// The bulk send over a channel, refilled on the transport's thread.
@Suite(.timeLimit(.minutes(5))) struct BulkPumpTests {
    @Test func aChannelInputIsSentOnceEachWithinTheWindowAndEndsWhenTheChannelDoes() async throws {
        let transport = APNsClientLifecycleTests.ScriptedTransport(statuses: [503, 503], delay: .milliseconds(1))
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
        var results: [UUID: APNsResult] = [:]
        var duplicates = 0
        await client.send(channel, maximumInFlight: 8) { notification, result in
            if results.updateValue(result, forKey: notification.apnsID) != nil { duplicates += 1 }
        }
        #expect(duplicates == 0)
        #expect(Set(results.keys) == Set(notifications.map(\.apnsID)))
        #expect(results.values.filter(\.isDelivered).count == 500)
        // Two 503s, each retried once: two requests more than notifications.
        #expect(transport.requests.load(ordering: .relaxed) == 502)
    }

    /// Feeds `notifications` into `channel` one at a time, the next only once the transport has the one before:
    /// the input runs dry between them. With the transport holding every answer until all have come, a client
    /// that waited for an answer before reading on would never get them all (and the suite's time limit ends it).
    static func trickle(
        _ notifications: [APNsNotification], into channel: BoundedChannel<APNsNotification>,
        seenBy transport: APNsClientLifecycleTests.ScriptedTransport
    ) {
        Thread {
            for notification in notifications {
                channel.send(notification)
                transport.arrivals.wait()
            }
            channel.finish()
        }.start()
    }

    @Test func inputThatTricklesInIsStartedAsItComesNotWhenAnAnswerReturns() async throws {
        let transport = APNsClientLifecycleTests.ScriptedTransport(holdUntil: 5)
        let client = APNsClient(transport: transport, tokens: nil)
        let channel = BoundedChannel<APNsNotification>(capacity: 8)
        let notifications = try (0..<5).map { _ in try APNsClientLifecycleTests.notification() }
        Self.trickle(notifications, into: channel, seenBy: transport)
        var delivered = 0
        await client.send(channel, maximumInFlight: 8) { _, result in delivered += result.isDelivered ? 1 : 0 }
        #expect(delivered == 5)
        // All five were under way together: none waited for an earlier one's answer.
        #expect(transport.mostUnderWay.load(ordering: .relaxed) == 5)
    }
}
