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
    let jitter: @Sendable () -> Double

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
        await withCheckedContinuation { continuation in
            Delivery(notification, client: self) { result, _ in continuation.resume(returning: result) }.start()
        }
    }

    /// Sends every notification of `notifications` with at most `maximumInFlight` under way, calling
    /// `onResult` with each result as it completes (in completion order). The loop waits for `onResult`, so
    /// a slow consumer slows the sending instead of piling up results: memory stays flat however long the
    /// input is. Results come back in batches through one mailbox, not one task per notification.
    public func send<Notifications: AsyncSequence & Sendable>(
        _ notifications: Notifications, maximumInFlight: Int = 1000,
        onResult: (APNsNotification, APNsResult) async -> Void
    ) async where Notifications.Element == APNsNotification {
        await send(notifications, maximumInFlight: maximumInFlight) { notification, result, _ in
            await onResult(notification, result)
        }
    }

    /// The same, with how many attempts each result took (retries included), for a caller that records it.
    public func send<Notifications: AsyncSequence & Sendable>(
        _ notifications: Notifications, maximumInFlight: Int = 1000,
        onOutcome: (_ notification: APNsNotification, _ result: APNsResult, _ attempts: Int) async -> Void
    ) async where Notifications.Element == APNsNotification {
        let mailbox = ResultMailbox()
        var inFlight = 0
        func report(_ batch: [ResultMailbox.Item]) async {
            for item in batch { await onOutcome(item.notification, item.result, item.attempts) }
            inFlight -= batch.count
        }
        do {
            for try await notification in notifications {
                if inFlight >= maximumInFlight { await report(await mailbox.take()) }
                Delivery(notification, client: self) { mailbox.put((notification, $0, $1)) }.start()
                inFlight += 1
                let ready = mailbox.takeAvailable()
                if !ready.isEmpty { await report(ready) }
            }
        } catch {
            // The input failed: what was read is still sent and reported below.
        }
        while inFlight > 0 { await report(await mailbox.take()) }
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
