import Foundation
import Pushbutton
import PushbuttonSupport

/// Sends one request that is not a device notification (a channel management request, a broadcast) with
/// the client's rules: one shared provider token, one refresh after `ExpiredProviderToken`, the retry
/// policy's backoff for 429, 500, 503 and lost streams (the latter only when resending is harmless).
/// These are few, so this is a plain async loop rather than the notification path's state machine.
struct RequestAttempts: Sendable {
    let transport: any APNsTransport
    let tokens: TokenProvider?
    let policy: RetryPolicy
    let timeout: Duration
    let jitter: @Sendable () -> Double
    let observer: (any APNsObserver)?
    /// What the backoffs sleep on and latencies are measured with (a `ManualClock` in tests).
    let clock: AnyDurationClock

    /// The final answer (2xx or not) or the cause there was none, and how many attempts it took.
    func send(
        idempotent: Bool, kind: APNsEvent.RequestKind, build: (ProviderToken?) -> HTTPRequest
    ) async -> (outcome: Result<HTTPResponse, APNsError>, attempts: Int) {
        var token: ProviderToken?
        if let tokens {
            do {
                token = try await tokens.token()
            } catch {
                return (.failure(APNsError(.invalidKey, "provider token: \(error)")), 0)
            }
        }
        var attempt = 0
        var refreshed = false
        while true {
            if Task.isCancelled { return (.failure(APNsError(.cancelled, "cancelled before it was sent")), attempt) }
            attempt += 1
            let request = build(token)
            if let problem = request.headerProblem { return (.failure(APNsError(.invalidRequest, problem)), attempt) }
            let elapsed = clock.stopwatch()
            let decision: RetryPolicy.Decision
            let outcome: Result<HTTPResponse, APNsError>
            do throws(APNsError) {
                let response = try await transport.send(request)
                outcome = .success(response)
                if (200..<300).contains(response.status) {
                    observer?.observe(
                        .requestAnswered(
                            kind, status: response.status, reason: nil, latency: elapsed()))
                    return (outcome, attempt)
                }
                let answer = APNsResponse(status: response.status, headers: response.headers, body: response.body)
                observer?.observe(
                    .requestAnswered(
                        kind, status: response.status, reason: answer.reason, latency: elapsed()))
                decision = policy.decide(after: answer, attempt: attempt, tokenRefreshed: refreshed, jitter: jitter())
            } catch {
                outcome = .failure(error)
                // A request that never reached APNs is safe to send again, idempotent or not.
                guard error.kind == .unreachable || (error.kind == .transport && idempotent) else {
                    return (outcome, attempt)
                }
                decision = policy.decide(after: nil, attempt: attempt, tokenRefreshed: refreshed, jitter: jitter())
            }
            switch decision {
            case .done, .giveUp:
                return (outcome, attempt)
            case .refreshTokenAndRetry:
                refreshed = true
                guard let tokens, let rejected = token, let fresh = try? await tokens.tokenAfterExpiry(of: rejected)
                else { return (outcome, attempt) }
                token = fresh
                observer?.observe(.requestRetried(kind, attempt: attempt + 1))
            case .retry(let delay):
                observer?.observe(.requestRetried(kind, attempt: attempt + 1))
                do { try await clock.sleep(for: delay) } catch { return (outcome, attempt) }
            }
        }
    }
}
