import Foundation
import Pushbutton
import Testing

@testable import PushbuttonAPNs

/// The delivery state machine on its own: events in, actions out, no transport, clock or thread.
@Suite struct DeliveryStateTests {
    static let id = UUID(uuidString: "8E2B4C3A-1F1D-4B0E-9A1E-3C1D2E3F4A5B")!
    static let policy = RetryPolicy(
        maximumAttempts: 3, baseBackoff: .milliseconds(100), maximumBackoff: .seconds(1))
    static let key = try! P256PrivateKey.generate()

    static func token(issuedAt: TimeInterval = 1_700_000_000) throws -> ProviderToken {
        try ProviderToken(
            key: key, keyID: "KEY1234567", teamID: "TEAM123456", issuedAt: Date(timeIntervalSince1970: issuedAt))
    }

    static func answer(_ status: Int, _ reason: String? = nil) -> Result<APNsResponse, APNsError> {
        .success(APNsResponse(status: status, reason: reason.map(APNsReason.init(rawValue:))))
    }

    @Test func aFreshTokenIsSentAtOnceAndA200Delivers() throws {
        let token = try Self.token()
        var state = DeliveryState(apnsID: Self.id, policy: Self.policy, usesTokens: true)
        #expect(state.start(freshToken: token) == .send(token: token))
        #expect(state.phase == .inFlight && state.attempt == 1)
        #expect(
            state.received(.success(APNsResponse(status: 200, uniqueID: "u1")), jitter: 0)
                == .finish(.delivered(apnsID: Self.id, uniqueID: "u1")))
        #expect(state.phase == .finished)
        // Nothing after the end: a late event changes nothing.
        #expect(state.received(Self.answer(200), jitter: 0) == .none)
        #expect(state.cancel() == .none)
    }

    @Test func aResetStateStartsOverForAnotherNotificationUnderTheSamePolicy() {
        var state = DeliveryState(apnsID: Self.id, policy: Self.policy, usesTokens: false)
        _ = state.start(freshToken: nil)
        #expect(state.received(Self.answer(503), jitter: 0) == .retry(after: .milliseconds(50)))
        #expect(state.backoffEnded() == .send(token: nil))
        // A 200 after a retry delivers, whatever the earlier answer was.
        #expect(state.received(Self.answer(200), jitter: 0) == .finish(.delivered(apnsID: Self.id, uniqueID: nil)))
        let next = UUID()
        state.reset(apnsID: next)
        #expect(state.apnsID == next && state.phase == .idle && state.attempt == 0 && !state.usesTokens)
        #expect(state.policy.maximumAttempts == Self.policy.maximumAttempts)
        #expect(state.start(freshToken: nil) == .send(token: nil))
        #expect(state.received(Self.answer(200), jitter: 0) == .finish(.delivered(apnsID: next, uniqueID: nil)))
    }

    @Test func withoutAFreshTokenTheProviderIsAskedFirst() throws {
        var state = DeliveryState(apnsID: Self.id, policy: Self.policy, usesTokens: true)
        #expect(state.start(freshToken: nil) == .obtainToken)
        #expect(state.phase == .waitingForToken && state.attempt == 0)
        let token = try Self.token()
        #expect(state.tokenObtained(token) == .send(token: token))
        var failing = DeliveryState(apnsID: Self.id, policy: Self.policy, usesTokens: true)
        _ = failing.start(freshToken: nil)
        #expect(
            failing.tokenFailed("the key is gone")
                == .finish(
                    .failed(
                        apnsID: Self.id, attempts: 0,
                        lastCause: APNsError(.invalidKey, "provider token: the key is gone"))))
    }

    @Test func certificateAuthenticationSendsWithoutAToken() {
        var state = DeliveryState(apnsID: Self.id, policy: Self.policy, usesTokens: false)
        #expect(state.start(freshToken: nil) == .send(token: nil))
    }

    @Test func retryableAnswersBackOffUntilTheAttemptsRunOut() {
        var state = DeliveryState(apnsID: Self.id, policy: Self.policy, usesTokens: false)
        _ = state.start(freshToken: nil)
        // Equal jitter: half the delay fixed, half random; jitter 0 gives the fixed half.
        #expect(state.received(Self.answer(503, "ServiceUnavailable"), jitter: 0) == .retry(after: .milliseconds(50)))
        #expect(state.phase == .backingOff)
        #expect(state.received(Self.answer(200), jitter: 0) == .none)  // no answer is expected while waiting
        #expect(state.backoffEnded() == .send(token: nil))
        #expect(state.attempt == 2)
        #expect(
            state.received(.failure(APNsError(.transport, "stream lost")), jitter: 0)
                == .retry(after: .milliseconds(100)))
        _ = state.backoffEnded()
        #expect(
            state.received(Self.answer(429, "TooManyRequests"), jitter: 0)
                == .finish(
                    .failed(apnsID: Self.id, attempts: 3, lastCause: APNsError(.serverAnswer, "429 TooManyRequests"))))
    }

    @Test func finalAnswersAreRejectionsWithTheirReasonAndTimestamp() {
        var state = DeliveryState(apnsID: Self.id, policy: Self.policy, usesTokens: false)
        _ = state.start(freshToken: nil)
        let gone = Date(timeIntervalSince1970: 1_700_000_000)
        #expect(
            state.received(.success(APNsResponse(status: 410, reason: .unregistered, timestamp: gone)), jitter: 0)
                == .finish(.rejected(apnsID: Self.id, status: 410, reason: .unregistered, unregisteredAt: gone)))
    }

    @Test func aShutDownOrInvalidRequestEndsWithoutRetry() {
        for kind in [APNsError.Kind.shutDown, .invalidRequest] {
            var state = DeliveryState(apnsID: Self.id, policy: Self.policy, usesTokens: false)
            _ = state.start(freshToken: nil)
            #expect(
                state.received(.failure(APNsError(kind, "no")), jitter: 0)
                    == .finish(.failed(apnsID: Self.id, attempts: 1, lastCause: APNsError(kind, "no"))))
        }
    }

    @Test func anExpiredProviderTokenGetsOneRefreshThenTheAnswerStands() throws {
        let old = try Self.token()
        let fresh = try Self.token(issuedAt: 1_700_002_000)
        var state = DeliveryState(apnsID: Self.id, policy: Self.policy, usesTokens: true)
        _ = state.start(freshToken: old)
        #expect(state.received(Self.answer(403, "ExpiredProviderToken"), jitter: 0) == .refreshToken(rejected: old))
        #expect(state.tokenRefreshed && state.phase == .waitingForToken)
        #expect(state.tokenObtained(fresh) == .send(token: fresh))
        #expect(
            state.received(Self.answer(403, "ExpiredProviderToken"), jitter: 0)
                == .finish(
                    .rejected(apnsID: Self.id, status: 403, reason: .expiredProviderToken, unregisteredAt: nil)))
        // A refresh that may not happen yet leaves the first answer as the outcome.
        var early = DeliveryState(apnsID: Self.id, policy: Self.policy, usesTokens: true)
        _ = early.start(freshToken: old)
        _ = early.received(Self.answer(403, "ExpiredProviderToken"), jitter: 0)
        #expect(
            early.refreshFailed()
                == .finish(
                    .rejected(apnsID: Self.id, status: 403, reason: .expiredProviderToken, unregisteredAt: nil)))
    }

    @Test func cancellingEndsWhatWasNotSentAndLetsAnAttemptUnderWayFinish() throws {
        var waiting = DeliveryState(apnsID: Self.id, policy: Self.policy, usesTokens: true)
        _ = waiting.start(freshToken: nil)
        #expect(
            waiting.cancel()
                == .finish(
                    .failed(
                        apnsID: Self.id, attempts: 0, lastCause: APNsError(.cancelled, "cancelled before it was sent")))
        )
        #expect(waiting.tokenObtained(try Self.token()) == .none)  // the token that comes later is not used

        var idle = DeliveryState(apnsID: Self.id, policy: Self.policy, usesTokens: false)
        #expect(
            idle.cancel()
                == .finish(
                    .failed(
                        apnsID: Self.id, attempts: 0, lastCause: APNsError(.cancelled, "cancelled before it was sent")))
        )
        #expect(idle.start(freshToken: nil) == .none)

        var delivered = DeliveryState(apnsID: Self.id, policy: Self.policy, usesTokens: false)
        _ = delivered.start(freshToken: nil)
        #expect(delivered.cancel() == .none)
        #expect(delivered.received(Self.answer(200), jitter: 0) == .finish(.delivered(apnsID: Self.id, uniqueID: nil)))

        var retrying = DeliveryState(apnsID: Self.id, policy: Self.policy, usesTokens: false)
        _ = retrying.start(freshToken: nil)
        #expect(retrying.cancel() == .none)
        #expect(
            retrying.received(Self.answer(503, "ServiceUnavailable"), jitter: 0)
                == .finish(
                    .failed(
                        apnsID: Self.id, attempts: 1,
                        lastCause: APNsError(.cancelled, "cancelled before a retry (503 ServiceUnavailable)"))))

        var backingOff = DeliveryState(apnsID: Self.id, policy: Self.policy, usesTokens: false)
        _ = backingOff.start(freshToken: nil)
        _ = backingOff.received(Self.answer(500, "InternalServerError"), jitter: 0)
        #expect(
            backingOff.cancel()
                == .finish(
                    .failed(
                        apnsID: Self.id, attempts: 1,
                        lastCause: APNsError(.cancelled, "cancelled before a retry (500 InternalServerError)"))))
    }

    @Test func triesThatNeverReachedAPNsAreNotAttempts() {
        let unreachable = APNsError(.unreachable, "stream lost: cannot connect: Connection refused")
        var state = DeliveryState(apnsID: Self.id, policy: Self.policy, usesTokens: false)
        #expect(state.start(freshToken: nil) == .send(token: nil))
        #expect(state.received(.failure(unreachable), jitter: 0) == .retry(after: .milliseconds(50)))
        #expect(state.attempt == 0 && state.unreachableTries == 1)
        #expect(state.backoffEnded() == .send(token: nil))
        #expect(state.attempt == 1)
        // A 503 is an attempt; the next try again never reaches APNs.
        #expect(state.received(Self.answer(503), jitter: 0) == .retry(after: .milliseconds(50)))
        #expect(state.backoffEnded() == .send(token: nil))
        #expect(state.received(.failure(unreachable), jitter: 0) == .retry(after: .milliseconds(100)))
        #expect(state.attempt == 1)
        #expect(state.backoffEnded() == .send(token: nil))
        #expect(state.received(Self.answer(200), jitter: 0) == .finish(.delivered(apnsID: Self.id, uniqueID: nil)))
        #expect(state.attempt == 2, "the 503 and the 200: the two unreachable tries are not counted")
    }

    @Test func whenNoTryReachesAPNsTheDeliveryEndsUnreachableWithNoAttemptSpent() {
        let unreachable = APNsError(.unreachable, "stream lost: cannot connect: Connection refused")
        var state = DeliveryState(apnsID: Self.id, policy: Self.policy, usesTokens: false)
        _ = state.start(freshToken: nil)
        for _ in 1..<Self.policy.maximumAttempts {
            guard case .retry = state.received(.failure(unreachable), jitter: 0) else {
                Issue.record("expected a retry")
                return
            }
            #expect(state.backoffEnded() == .send(token: nil))
        }
        #expect(
            state.received(.failure(unreachable), jitter: 0)
                == .finish(.failed(apnsID: Self.id, attempts: 0, lastCause: unreachable)))
        // A cancellation during a try that then never reached APNs ends it as cancelled, without a retry.
        var cancelled = DeliveryState(apnsID: Self.id, policy: Self.policy, usesTokens: false)
        _ = cancelled.start(freshToken: nil)
        #expect(cancelled.cancel() == .none)
        guard case .finish(.failed(_, 0, let cause)) = cancelled.received(.failure(unreachable), jitter: 0) else {
            Issue.record("expected a cancelled failure")
            return
        }
        #expect(cause.kind == .cancelled)
    }
}
