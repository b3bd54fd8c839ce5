import PushbuttonSupport
import Testing

/// The wall clock's sleep (``AnyDurationClock/continuous``): a cancelled sleep throws at once and its timer leaves
/// Dispatch's heap at once, not at its deadline (a gateway cancels one for nearly every notification it sends).
/// The wall clock's sleep is the code under test, so it cannot be injected; no test waits on it: the hour-long
/// sleeps are cancelled at once and the one that fires is due at once.
struct DispatchSleepTests {
    @Test func cancelledSleepsTakeTheirTimersOutOfTheHeapAtOnce() async {
        let (removals, removed) = AsyncStream.makeStream(of: Void.self)
        let sleeps = (0..<100).map { _ in
            Task { try await DispatchSleep.sleep(for: .seconds(3600)) { removed.yield() } }
        }
        for sleep in sleeps { sleep.cancel() }
        for sleep in sleeps {
            await #expect(throws: CancellationError.self) { try await sleep.value }
        }
        // An hour's timers: only their cancellation can have taken them out.
        var count = 0
        for await _ in removals {
            count += 1
            if count == 100 { break }
        }
        #expect(count == 100)
    }

    @Test func aSleepEndsWhenItsTimerFires() async throws {
        let (removals, removed) = AsyncStream.makeStream(of: Void.self)
        try await DispatchSleep.sleep(for: .zero) { removed.yield() }
        var iterator = removals.makeAsyncIterator()
        #expect(await iterator.next() != nil, "the fired timer is taken out too")
    }

    @Test func aTaskCancelledBeforeItSleepsDoesNotSleep() async {
        let (removals, removed) = AsyncStream.makeStream(of: Void.self)
        let sleep = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            try await DispatchSleep.sleep(for: .seconds(3600)) { removed.yield() }
        }
        await #expect(throws: CancellationError.self) { try await sleep.value }
        var iterator = removals.makeAsyncIterator()
        #expect(await iterator.next() != nil)
    }

    @Test func theContinuousClockSleepsOnIt() async throws {
        let sleep = Task { try await AnyDurationClock.continuous.sleep(for: .seconds(3600)) }
        sleep.cancel()
        await #expect(throws: CancellationError.self) { try await sleep.value }
    }
}
