import Foundation
import Pushbutton

extension APNsClient {
    /// Sends one broadcast to its channel; returns its definite outcome, whose id is the broadcast's
    /// `apns-request-id`.
    ///
    /// The client's transport, provider token and retry policy serve broadcasts as they serve
    /// notifications: 429, 500, 503 and lost streams are retried with the same `apns-request-id`. A
    /// broadcast APNs would refuse for its form (see ``APNsBroadcast/problem``) fails at once with kind
    /// `invalidRequest`, without a request. `ChannelNotRegistered` (410) means the channel is gone: stop
    /// broadcasting on it.
    public func send(_ broadcast: APNsBroadcast) async -> APNsResult {
        let id = broadcast.requestID
        if let problem = broadcast.problem {
            return .failed(apnsID: id, attempts: 0, lastCause: APNsError(.invalidRequest, problem))
        }
        let attempts = RequestAttempts(
            transport: transport, tokens: tokens, policy: retryPolicy, timeout: requestTimeout, jitter: jitter,
            observer: observer, clock: clock)
        let timeout = requestTimeout
        let (outcome, count) = await attempts.send(idempotent: true, kind: .broadcast) { token in
            HTTPRequest(
                path: broadcast.path, headers: broadcast.headers(token: token), body: broadcast.payload,
                timeout: timeout)
        }
        switch outcome {
        case .failure(let error):
            return .failed(apnsID: id, attempts: count, lastCause: error)
        case .success(let response) where (200..<300).contains(response.status):
            return .delivered(apnsID: id, uniqueID: response.headers["apns-unique-id"].map(TerminalText.escaped))
        case .success(let response):
            let answer = APNsResponse(status: response.status, headers: response.headers, body: response.body)
            let reason = answer.reason ?? APNsReason(rawValue: "HTTP\(response.status)")
            if RetryPolicy.isRetryable(status: response.status, reason: reason) {
                return .failed(
                    apnsID: id, attempts: count,
                    lastCause: APNsError(.serverAnswer, "APNs answered \(response.status) \(reason.rawValue)"))
            }
            return .rejected(apnsID: id, status: response.status, reason: reason, unregisteredAt: nil)
        }
    }
}
