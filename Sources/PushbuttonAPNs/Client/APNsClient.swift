import Foundation

/// Sends notifications to APNs and gives every one a definite ``APNsResult``.
///
/// Token authentication uses one ``TokenProvider`` for every connection. Each notification is retried by
/// its ``RetryPolicy`` with the same `apns-id`; an `ExpiredProviderToken` answer gets one retry with a
/// refreshed token (never sooner than APNs' 20-minute rule allows). Nothing is dropped: a notification ends
/// delivered, rejected (with APNs' reason) or failed (with the last cause).
public final class APNsClient: Sendable {
    public let transport: any APNsTransport
    public let tokens: TokenProvider?
    public let retryPolicy: RetryPolicy
    public let requestTimeout: Duration
    private let jitter: @Sendable () -> Double

    /// - Parameters:
    ///   - tokens: the provider token source, or `nil` for certificate authentication (set in the transport).
    public init(
        transport: any APNsTransport, tokens: TokenProvider?, retryPolicy: RetryPolicy = RetryPolicy(),
        requestTimeout: Duration = .seconds(30), jitter: @escaping @Sendable () -> Double = { Double.random(in: 0...1) }
    ) {
        self.transport = transport
        self.tokens = tokens
        self.retryPolicy = retryPolicy
        self.requestTimeout = requestTimeout
        self.jitter = jitter
    }

    /// Sends one notification; returns its definite outcome.
    public func send(_ notification: APNsNotification) async -> APNsResult {
        var attempt = 0
        var tokenRefreshed = false
        var token: ProviderToken?
        do {
            if let tokens {
                if let fresh = tokens.freshToken() {
                    token = fresh
                } else {
                    token = try await tokens.token()
                }
            }
        } catch {
            return .failed(apnsID: notification.apnsID, attempts: 0, lastCause: "provider token: \(error)")
        }
        while true {
            attempt += 1
            let request = HTTPRequest(
                path: notification.path, headers: notification.headers(token: token), body: notification.payload,
                timeout: requestTimeout)
            var response: APNsResponse?
            var cause: String
            do {
                let http = try await transport.send(request)
                let parsed = APNsResponse(status: http.status, headers: http.headers, body: http.body)
                response = parsed
                cause = "\(parsed.status) \(parsed.reason?.rawValue ?? "")"
            } catch {
                if error.kind == .shutDown {
                    return .failed(apnsID: notification.apnsID, attempts: attempt, lastCause: error.message)
                }
                cause = error.message
            }
            switch retryPolicy.decide(
                after: response, attempt: attempt, tokenRefreshed: tokenRefreshed, jitter: jitter())
            {
            case .done:
                return .delivered(apnsID: notification.apnsID, uniqueID: response?.uniqueID)
            case .retry(let delay):
                try? await Task.sleep(for: delay)
            case .refreshTokenAndRetry:
                tokenRefreshed = true
                guard let rejected = token, let fresh = try? await tokens?.tokenAfterExpiry(of: rejected) else {
                    return final(notification, response, attempt, cause)
                }
                token = fresh
            case .giveUp:
                return final(notification, response, attempt, cause)
            }
        }
    }

    private func final(_ notification: APNsNotification, _ response: APNsResponse?, _ attempts: Int, _ cause: String)
        -> APNsResult
    {
        guard let response, !RetryPolicy.isRetryable(status: response.status, reason: response.reason) else {
            return .failed(apnsID: notification.apnsID, attempts: attempts, lastCause: cause)
        }
        return .rejected(
            apnsID: notification.apnsID, status: response.status,
            reason: response.reason ?? APNsReason(rawValue: "HTTP\(response.status)"),
            unregisteredAt: response.timestamp)
    }

    /// Sends every notification of `notifications` with at most `maximumInFlight` under way, calling
    /// `onResult` with each result as it completes (in completion order). The loop waits for `onResult`, so
    /// a slow consumer slows the sending instead of piling up results: memory stays flat however long the
    /// input is.
    public func send<Notifications: AsyncSequence & Sendable>(
        _ notifications: Notifications, maximumInFlight: Int = 1000,
        onResult: (APNsNotification, APNsResult) async -> Void
    ) async where Notifications.Element == APNsNotification {
        await withTaskGroup(of: (APNsNotification, APNsResult).self) { group in
            var inFlight = 0
            do {
                for try await notification in notifications {
                    if inFlight >= maximumInFlight, let (done, result) = await group.next() {
                        await onResult(done, result)
                        inFlight -= 1
                    }
                    group.addTask { (notification, await self.send(notification)) }
                    inFlight += 1
                }
            } catch {
                // The input failed: what was read is still sent and reported below.
            }
            for await (done, result) in group { await onResult(done, result) }
        }
    }

    /// The same as a stream of results. Results wait in the stream's buffer until read, so read them as they
    /// come (or use ``send(_:maximumInFlight:onResult:)``, whose loop waits for the consumer).
    public func send<Notifications: AsyncSequence & Sendable>(
        _ notifications: Notifications, maximumInFlight: Int = 1000
    ) -> AsyncStream<(notification: APNsNotification, result: APNsResult)>
    where Notifications.Element == APNsNotification {
        AsyncStream { continuation in
            let task = Task {
                await self.send(notifications, maximumInFlight: maximumInFlight) { continuation.yield(($0, $1)) }
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    /// Finishes what is in flight, then closes the connections.
    public func shutdown() async {
        await transport.shutdown()
    }
}
