import PushbuttonReceiverTesting
import PushbuttonSupport
import PushbuttonTestSupport
import Testing

@testable import PushbuttonGateway

/// The workers' wake-up: a raise ends one wait (``WorkSignal/raiseForAll()`` every one), a raise that came between a worker's lease and its wait is
/// not lost, and the fallback timeout runs on the injected clock.
struct WorkSignalTests {
    @Test func aRaiseWakesOneWaiterTheLongestWaiting() async {
        let clock = ManualClock()
        let signal = WorkSignal(clock: AnyDurationClock(clock))
        let seen = signal.generation
        let first = Task { await signal.wait(after: seen, timeout: .seconds(60)) }
        await clock.waitForSleepers(1)
        let second = Task { await signal.wait(after: seen, timeout: .seconds(60)) }
        await clock.waitForSleepers(2)  // both wait, each with its fallback timer
        signal.raise()
        #expect(await first.value == .signalled)
        #expect(signal.wakes(.signalled) == 1, "one commit wakes one worker, not every idle one")
        #expect(clock.sleeperCount == 1, "the other still waits")
        signal.raise()
        #expect(await second.value == .signalled)
        #expect(signal.wakes(.timedOut) == 0)
    }

    @Test func raiseForAllWakesEveryWaiter() async {
        let clock = ManualClock()
        let signal = WorkSignal(clock: AnyDurationClock(clock))
        let seen = signal.generation
        async let first = signal.wait(after: seen, timeout: .seconds(60))
        async let second = signal.wait(after: seen, timeout: .seconds(60))
        await clock.waitForSleepers(2)
        signal.raiseForAll()  // the drain begins
        #expect(await [first, second] == [.signalled, .signalled])
        #expect(signal.wakes(.signalled) == 2)
    }

    @Test func aRaiseBeforeTheWaitIsNotLost() async {
        let signal = WorkSignal(clock: AnyDurationClock(ManualClock()))
        let seen = signal.generation  // read before the lease
        signal.raise()  // an intake commits while the lease runs
        #expect(await signal.wait(after: seen, timeout: .seconds(60)) == .signalled)
    }

    @Test func withoutARaiseTheFallbackTimeoutEndsTheWait() async {
        let clock = ManualClock()
        let signal = WorkSignal(clock: AnyDurationClock(clock))
        async let wake = signal.wait(after: signal.generation, timeout: .seconds(2))
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(1))
        #expect(clock.sleeperCount == 1, "not yet due")
        clock.advance(by: .seconds(1))
        #expect(await wake == .timedOut)
        #expect(signal.wakes(.timedOut) == 1)
    }

    @Test func aRaiseCancelsTheFallbackTimer() async {
        let clock = ManualClock()
        let signal = WorkSignal(clock: AnyDurationClock(clock))
        async let wake = signal.wait(after: signal.generation, timeout: .seconds(2))
        await clock.waitForSleepers(1)
        signal.raise()
        #expect(await wake == .signalled)
        await yieldUntil { clock.sleeperCount == 0 }  // the timer's sleep was cancelled, not left behind
        clock.advance(by: .seconds(5))
        #expect(signal.wakes(.timedOut) == 0)
    }

    @Test func cancellingTheWaiterEndsTheWait() async {
        let clock = ManualClock()
        let signal = WorkSignal(clock: AnyDurationClock(clock))
        let waiter = Task { await signal.wait(after: signal.generation, timeout: .seconds(60)) }
        await clock.waitForSleepers(1)
        waiter.cancel()
        #expect(await waiter.value == .cancelled)
    }
}
