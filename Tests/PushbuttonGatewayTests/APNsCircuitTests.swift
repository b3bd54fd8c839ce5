import Foundation
import PushbuttonReceiverTesting
import PushbuttonSupport
import Testing

@testable import PushbuttonGateway

/// The per-app circuit breaker on its own, its probe backoff on a manual clock.
struct APNsCircuitTests {
    final class Recorded: Sendable {
        let lines = Locked<[String]>([])
        let states = Locked<[Bool]>([])
    }

    static func circuit(_ clock: ManualClock, _ recorded: Recorded) -> APNsCircuit {
        APNsCircuit(
            app: "chat", clock: AnyDurationClock(clock), threshold: 3, baseBackoff: .seconds(1),
            maximumBackoff: .seconds(4), log: { line in recorded.lines.withLock { $0.append(line) } },
            changed: { open in recorded.states.withLock { $0.append(open) } })
    }

    @Test func itOpensAfterThresholdUnreachableRecipientsInARowAndAnAnswerResetsTheCount() {
        let clock = ManualClock()
        let recorded = Recorded()
        let circuit = Self.circuit(clock, recorded)
        #expect(circuit.admit() == .send)
        circuit.record(reached: 0, unreachable: 2)
        circuit.record(reached: 1, unreachable: 0)  // an answer: the count starts over
        circuit.record(reached: 0, unreachable: 2)
        #expect(!circuit.isOpen && circuit.admit() == .send)
        circuit.record(reached: 0, unreachable: 1)
        #expect(circuit.isOpen)
        #expect(circuit.admit() == .hold)
        // A batch sent before it opened, coming back unreachable, changes nothing and says nothing more.
        circuit.record(reached: 0, unreachable: 50)
        #expect(recorded.states.withLock { $0 } == [true])
        let lines = recorded.lines.withLock { $0 }
        #expect(lines.count == 1 && lines[0].contains("app 'chat': APNs unreachable"), "\(lines)")
    }

    @Test func openItProbesOneBatchAtATimeWithAGrowingBackoffAndAnAnswerClosesIt() {
        let clock = ManualClock()
        let recorded = Recorded()
        let circuit = Self.circuit(clock, recorded)
        circuit.record(reached: 0, unreachable: 3)
        #expect(circuit.admit() == .hold)
        clock.advance(by: .milliseconds(999))
        #expect(circuit.admit() == .hold)
        clock.advance(by: .milliseconds(1))
        #expect(circuit.admit() == .send, "the first probe after 1 s")
        #expect(circuit.admit() == .hold, "one probe at a time")
        circuit.record(reached: 0, unreachable: 10)
        clock.advance(by: .seconds(1))
        #expect(circuit.admit() == .hold, "the next probe waits 2 s")
        clock.advance(by: .seconds(1))
        #expect(circuit.admit() == .send)
        circuit.record(reached: 0, unreachable: 1)
        circuit.record(reached: 0, unreachable: 0)  // a batch without a try: not a probe's outcome
        clock.advance(by: .seconds(4))
        #expect(circuit.admit() == .send)
        circuit.record(reached: 0, unreachable: 1)
        clock.advance(by: .seconds(3))
        #expect(circuit.admit() == .hold, "at most 4 s between probes, not 8")
        clock.advance(by: .seconds(1))
        #expect(circuit.admit() == .send)
        // A probe without a try (every recipient held elsewhere) lets the next batch probe.
        circuit.record(reached: 0, unreachable: 0)
        #expect(circuit.admit() == .send)
        circuit.record(reached: 5, unreachable: 0)
        #expect(!circuit.isOpen && circuit.admit() == .send && circuit.admit() == .send)
        #expect(recorded.states.withLock { $0 } == [true, false])
        let lines = recorded.lines.withLock { $0 }
        #expect(lines.count == 2 && lines[1].contains("APNs reachable again"), "\(lines)")
        // Closed again, it needs the threshold again to open.
        circuit.record(reached: 0, unreachable: 2)
        #expect(!circuit.isOpen)
    }

    @Test func aHeldRecipientExpiresWhenItsAPNsExpirationHasPassed() {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        #expect(!APNsCircuit.hasExpired(expiration: nil, now: now), "no expiration: held on")
        #expect(APNsCircuit.hasExpired(expiration: 0, now: now), "0: deliver at once or not at all")
        #expect(APNsCircuit.hasExpired(expiration: 1_800_000_000, now: now))
        #expect(!APNsCircuit.hasExpired(expiration: 1_800_000_001, now: now))
        #expect(
            APNsCircuit.expiredCause(expiration: 5, lastCause: "stream lost: Connection refused")
                == "expired (apns-expiration 5) while APNs was unreachable; last try: stream lost: Connection refused")
    }
}
