import Foundation
import Pushbutton

/// One notification's way to a definite result, as a value: each event (started, a token came, an answer
/// came, a backoff ended, cancelled) goes in, and the one next step comes out as an ``Action``, which
/// ``Delivery`` executes. Every rule of the retry policy, the one token refresh and cancellation is
/// here, so it is tested without a transport, a clock or a thread.
struct DeliveryState: Sendable {
    /// The step to take next.
    enum Action: Sendable, Equatable {
        /// Ask the token provider for a token, then report ``tokenObtained(_:)`` or ``tokenFailed(_:)``.
        case obtainToken
        /// Send attempt ``DeliveryState/attempt`` with this token (nil: certificate authentication), then
        /// report ``received(_:jitter:)``.
        case send(token: ProviderToken?)
        /// Wait, then report ``backoffEnded()``.
        case retry(after: Duration)
        /// Ask for a token to replace `rejected` (APNs answered ExpiredProviderToken), then report
        /// ``tokenObtained(_:)`` or ``refreshFailed()``.
        case refreshToken(rejected: ProviderToken)
        /// The definite outcome: nothing follows.
        case finish(APNsResult)
        /// Nothing to do now: an attempt is under way, or the delivery already finished.
        case none
    }

    /// Where the delivery stands between events.
    enum Phase: Sendable, Equatable {
        case idle
        case waitingForToken
        case inFlight
        case backingOff
        case finished
    }

    let apnsID: UUID
    let policy: RetryPolicy
    /// Whether requests carry a provider token.
    let usesTokens: Bool
    private(set) var phase = Phase.idle
    /// Attempts made so far, the one under way included.
    private(set) var attempt = 0
    private(set) var tokenRefreshed = false
    private(set) var token: ProviderToken?
    /// Tries that never reached APNs (no connection could be made): not attempts, but bounded by the
    /// policy's attempts too, so a sender without APNs ends rather than trying forever.
    private(set) var unreachableTries = 0
    /// Set by a cancellation during an attempt: its answer still counts, but no retry follows it.
    private(set) var cancelRequested = false
    /// The last answer, or the last failure in transit, for the outcome when retries end.
    private var lastResponse: APNsResponse?
    private var lastFailure = APNsError(.transport, "no attempt was made")
    /// Why the last attempt did not deliver: its answer's status and reason, described only when an outcome
    /// needs it (not for every answer of a bulk send, nearly all 200s).
    private var lastCause: APNsError {
        guard let response = lastResponse else { return lastFailure }
        return APNsError(.serverAnswer, "\(response.status) \(response.reason?.rawValue ?? "")")
    }

    init(apnsID: UUID, policy: RetryPolicy, usesTokens: Bool) {
        self.apnsID = apnsID
        self.policy = policy
        self.usesTokens = usesTokens
    }

    /// Makes this the state of a new delivery of `apnsID` under the same policy (a delivery started again for
    /// another notification).
    mutating func reset(apnsID: UUID) {
        self = DeliveryState(apnsID: apnsID, policy: policy, usesTokens: usesTokens)
    }

    /// The first event; `freshToken` is the provider's current token when it can be had without waiting.
    mutating func start(freshToken: ProviderToken?) -> Action {
        guard phase == .idle else { return .none }
        guard usesTokens, freshToken == nil else {
            token = freshToken
            return sendNext()
        }
        phase = .waitingForToken
        return .obtainToken
    }

    mutating func tokenObtained(_ token: ProviderToken) -> Action {
        guard phase == .waitingForToken else { return .none }
        self.token = token
        return cancelRequested ? finish(cancelled()) : sendNext()
    }

    mutating func tokenFailed(_ description: String) -> Action {
        guard phase == .waitingForToken else { return .none }
        return finish(
            .failed(
                apnsID: apnsID, attempts: attempt, lastCause: APNsError(.invalidKey, "provider token: \(description)")))
    }

    /// The answer to the attempt under way, or how it failed in transit.
    mutating func received(_ outcome: Result<APNsResponse, APNsError>, jitter: @autoclosure () -> Double) -> Action {
        guard phase == .inFlight else { return .none }
        // The answer to nearly every request of a bulk send: delivered, whatever the policy (see
        // ``RetryPolicy/decide(after:attempt:tokenRefreshed:jitter:)``); the answer is not kept, as nothing
        // reads it once the delivery finished.
        if case .success(let answer) = outcome, answer.status == 200 {
            return finish(.delivered(apnsID: apnsID, uniqueID: answer.uniqueID))
        }
        let response: APNsResponse?
        switch outcome {
        case .success(let answer):
            response = answer
        case .failure(let error):
            if error.kind == .shutDown || error.kind == .invalidRequest {
                return finish(.failed(apnsID: apnsID, attempts: attempt, lastCause: error))
            }
            if error.kind == .unreachable { return neverSent(error, jitter: jitter()) }
            response = nil
            lastFailure = error
        }
        lastResponse = response
        let decision = policy.decide(
            after: response, attempt: attempt, tokenRefreshed: tokenRefreshed, jitter: jitter())
        switch decision {
        case .done:
            return finish(.delivered(apnsID: apnsID, uniqueID: response?.uniqueID))
        case .giveUp:
            return finish(final())
        case .retry(let delay):
            if cancelRequested { return finish(cancelled()) }
            phase = .backingOff
            return .retry(after: delay)
        case .refreshTokenAndRetry:
            tokenRefreshed = true
            guard let rejected = token, !cancelRequested else { return finish(cancelRequested ? cancelled() : final()) }
            phase = .waitingForToken
            return .refreshToken(rejected: rejected)
        }
    }

    /// The try under way never reached APNs: it is not counted as an attempt. Tried again after a backoff
    /// until the policy's attempts worth of tries failed so; then failed with the attempts that did reach APNs
    /// (and `.unreachable` as the cause, which tells a caller the notification may be held and sent later).
    private mutating func neverSent(_ error: APNsError, jitter: @autoclosure () -> Double) -> Action {
        attempt -= 1
        unreachableTries += 1
        if lastResponse == nil { lastFailure = error }
        guard unreachableTries < policy.maximumAttempts, !cancelRequested else {
            return finish(
                cancelRequested ? cancelled() : .failed(apnsID: apnsID, attempts: attempt, lastCause: error))
        }
        phase = .backingOff
        return .retry(after: policy.backoff(afterAttempt: unreachableTries, jitter: jitter()))
    }

    mutating func backoffEnded() -> Action {
        guard phase == .backingOff else { return .none }
        return sendNext()
    }

    /// No token may replace the expired one (too soon, or the key failed): the last answer stands.
    mutating func refreshFailed() -> Action {
        guard phase == .waitingForToken else { return .none }
        return finish(final())
    }

    /// The caller's task was cancelled: what has not been sent ends now, as cancelled; an attempt under
    /// way still gets its answer (and the outcome it decides), but no retry.
    mutating func cancel() -> Action {
        switch phase {
        case .idle, .waitingForToken, .backingOff: return finish(cancelled())
        case .inFlight:
            cancelRequested = true
            return .none
        case .finished: return .none
        }
    }

    private mutating func sendNext() -> Action {
        attempt += 1
        phase = .inFlight
        return .send(token: token)
    }

    private mutating func finish(_ result: APNsResult) -> Action {
        phase = .finished
        return .finish(result)
    }

    private func cancelled() -> APNsResult {
        .failed(
            apnsID: apnsID, attempts: attempt,
            lastCause: APNsError(
                .cancelled,
                attempt == 0 ? "cancelled before it was sent" : "cancelled before a retry (\(lastCause.message))"))
    }

    /// Rejected when APNs refused it for good, failed when retries ran out.
    private func final() -> APNsResult {
        guard let response = lastResponse, !RetryPolicy.isRetryable(status: response.status, reason: response.reason)
        else {
            return .failed(apnsID: apnsID, attempts: attempt, lastCause: lastCause)
        }
        return .rejected(
            apnsID: apnsID, status: response.status,
            reason: response.reason ?? APNsReason(rawValue: "HTTP\(response.status)"),
            unregisteredAt: response.timestamp)
    }
}
