import Foundation
import Pushbutton
import PushbuttonSupport

/// One notification's way to a definite result: attempts through the transport's callback path, the retry
/// policy's decisions, backoff, and the one token refresh. Its steps run one after another (each attempt
/// starts after the previous one ended), never at the same time.
final class Delivery: @unchecked Sendable {
    // `@unchecked Sendable`: the mutable state is only touched by the step running now; each step starts
    // the next one (an attempt, a timer, a task) only as its last action.
    private let notification: APNsNotification
    private let client: APNsClient
    /// The result, and how many attempts it took.
    private let onFinish: @Sendable (APNsResult, Int) -> Void
    private var attempt = 0
    private var tokenRefreshed = false
    private var token: ProviderToken?

    init(
        _ notification: APNsNotification, client: APNsClient, finish: @escaping @Sendable (APNsResult, Int) -> Void
    ) {
        self.notification = notification
        self.client = client
        self.onFinish = finish
    }

    private func finish(_ result: APNsResult) { onFinish(result, attempt) }

    func start() {
        guard let tokens = client.tokens else { return send() }
        if let fresh = tokens.freshToken() {
            token = fresh
            return send()
        }
        Task {
            do {
                token = try await tokens.token()
                send()
            } catch {
                finish(.failed(apnsID: notification.apnsID, attempts: 0, lastCause: "provider token: \(error)"))
            }
        }
    }

    private func send() {
        attempt += 1
        let request = HTTPRequest(
            path: notification.path, headers: notification.headers(token: token), body: notification.payload,
            timeout: client.requestTimeout)
        client.transport.submit(request) { [self] in handle($0) }
    }

    private func handle(_ outcome: Result<HTTPResponse, APNsError>) {
        var response: APNsResponse?
        let cause: String
        switch outcome {
        case .success(let http):
            let parsed = APNsResponse(status: http.status, headers: http.headers, body: http.body)
            response = parsed
            cause = "\(parsed.status) \(parsed.reason?.rawValue ?? "")"
        case .failure(let error):
            if error.kind == .shutDown || error.kind == .invalidRequest {
                return finish(.failed(apnsID: notification.apnsID, attempts: attempt, lastCause: error.message))
            }
            cause = error.message
        }
        let decision = client.retryPolicy.decide(
            after: response, attempt: attempt, tokenRefreshed: tokenRefreshed, jitter: client.jitter())
        switch decision {
        case .done:
            finish(.delivered(apnsID: notification.apnsID, uniqueID: response?.uniqueID))
        case .retry(let delay):
            DispatchQueue.global().asyncAfter(deadline: .now() + delay.seconds) { [self] in send() }
        case .refreshTokenAndRetry:
            tokenRefreshed = true
            Task {
                guard let rejected = token, let fresh = try? await client.tokens?.tokenAfterExpiry(of: rejected) else {
                    return finish(final(response, cause))
                }
                token = fresh
                send()
            }
        case .giveUp:
            finish(final(response, cause))
        }
    }

    /// Rejected when APNs refused it for good, failed when retries ran out.
    private func final(_ response: APNsResponse?, _ cause: String) -> APNsResult {
        guard let response, !RetryPolicy.isRetryable(status: response.status, reason: response.reason) else {
            return .failed(apnsID: notification.apnsID, attempts: attempt, lastCause: cause)
        }
        return .rejected(
            apnsID: notification.apnsID, status: response.status,
            reason: response.reason ?? APNsReason(rawValue: "HTTP\(response.status)"),
            unregisteredAt: response.timestamp)
    }
}
