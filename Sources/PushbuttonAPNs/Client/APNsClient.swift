import Foundation
import PushbuttonSupport

/// Sends notifications to APNs and gives every one a definite ``APNsResult``.
///
/// Token authentication uses one ``TokenProvider`` for every connection. Each notification is retried by
/// its ``RetryPolicy`` with the same `apns-id`; an `ExpiredProviderToken` answer gets one retry with a
/// refreshed token (never sooner than APNs' 20-minute rule allows). Nothing is dropped: a notification ends
/// delivered, rejected (with APNs' reason) or failed (with the last cause).
public final class APNsClient: Sendable {
    /// The HTTP/2 connections the notifications go over.
    public let transport: any APNsTransport
    /// The shared provider token source; `nil` with certificate authentication.
    public let tokens: TokenProvider?
    /// How often and how long apart a notification is retried.
    public let retryPolicy: RetryPolicy
    /// How long one attempt may wait for APNs' answer before it counts as a transport failure.
    public let requestTimeout: Duration
    let jitter: @Sendable () -> Double
    /// What retries' backoffs sleep on (``Delivery``, broadcasts): the wall clock, a `ManualClock` in tests.
    package let clock: AnyDurationClock
    /// Hears every notification's progress, connection change and token made (nil: nothing is reported,
    /// and nothing extra is done per notification).
    public let observer: (any APNsObserver)?
    /// Whether there is an ``observer``: read per attempt, without copying the existential.
    let isObserved: Bool
    /// The transport's notification path, when it has one (looked up once, not per attempt).
    let notificationTransport: (any NotificationTransport)?

    /// - Parameters:
    ///   - tokens: the provider token source, or `nil` for certificate authentication (set in the transport).
    ///   - observer: receives the client's ``APNsEvent``s (``APNsStatistics``, ``APNsLogObserver``, your own).
    public convenience init(
        transport: any APNsTransport, tokens: TokenProvider?, retryPolicy: RetryPolicy = RetryPolicy(),
        requestTimeout: Duration = .seconds(30),
        jitter: @escaping @Sendable () -> Double = { Double.random(in: 0...1) },
        observer: (any APNsObserver)? = nil
    ) {
        self.init(
            transport: transport, tokens: tokens, retryPolicy: retryPolicy, requestTimeout: requestTimeout,
            jitter: jitter, observer: observer, clock: .continuous)
    }

    /// As the public initializer, with the clock the retries' backoffs sleep on (a `ManualClock` in tests).
    package init(
        transport: any APNsTransport, tokens: TokenProvider?, retryPolicy: RetryPolicy = RetryPolicy(),
        requestTimeout: Duration = .seconds(30),
        jitter: @escaping @Sendable () -> Double = { Double.random(in: 0...1) },
        observer: (any APNsObserver)? = nil, clock: AnyDurationClock
    ) {
        self.clock = clock
        self.transport = transport
        self.tokens = tokens
        self.retryPolicy = retryPolicy
        self.requestTimeout = requestTimeout
        self.jitter = jitter
        notificationTransport = transport as? any NotificationTransport
        self.observer = observer
        isObserved = observer != nil
        if let observer {
            (transport as? any ObservableTransport)?.attach(observer)
            tokens?.observers.attach(observer)
        }
    }

    /// Sends one notification; returns its definite outcome.
    ///
    /// Honours task cancellation: a notification not sent yet (waiting for a token or a retry's backoff)
    /// ends at once as failed with the cause "cancelled…"; an attempt under way still gets its answer, and
    /// that answer's outcome stands, but no retry follows it.
    public func send(_ notification: APNsNotification) async -> APNsResult {
        let sink = SingleResult()
        let delivery = Delivery(notification, client: self, sink: sink)
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                sink.wait(continuation)
                delivery.start()
            }
        } onCancel: {
            delivery.cancel()
        }
    }

    /// Sends every notification of `notifications` with at most `maximumInFlight` under way, calling
    /// `onResult` with each result as it completes (in completion order). The loop waits for `onResult`, so
    /// a slow consumer slows the sending instead of piling up results: memory stays flat however long the
    /// input is. Results come back in batches through one mailbox, not one task per notification.
    ///
    /// An error thrown by `notifications` ends the reading; what was read is still sent, its results are
    /// reported, and then the error is thrown. Cancelling the calling task ends the reading the same way
    /// (what is under way finishes), without an error.
    public func send<Notifications: AsyncSequence & Sendable>(
        _ notifications: Notifications, maximumInFlight: Int = 1000,
        onResult: (APNsNotification, APNsResult) async -> Void
    ) async rethrows where Notifications.Element == APNsNotification {
        try await send(notifications, maximumInFlight: maximumInFlight) { notification, result, _ in
            await onResult(notification, result)
        }
    }

    /// The same, with how many attempts each result took (retries included), for a caller that records it.
    public func send<Notifications: AsyncSequence & Sendable>(
        _ notifications: Notifications, maximumInFlight: Int = 1000,
        onOutcome onResult: (_ notification: APNsNotification, _ result: APNsResult, _ attempts: Int) async -> Void
    ) async rethrows where Notifications.Element == APNsNotification {
        if let source = notifications as? any SynchronousNotificationSource {
            return try await send(pumping: source, notifications, maximumInFlight: maximumInFlight, onResult: onResult)
        }
        let mailbox = ResultMailbox()
        var inFlight = 0
        func report(_ batch: consuming [ResultMailbox.Item]) async {
            // By index, so the batch is not consumed and its (then unique) storage can be handed back.
            for index in 0..<batch.count {
                await onResult(batch[index].notification, batch[index].result, batch[index].attempts)
            }
            inFlight -= batch.count
            mailbox.recycle(&batch)
        }
        do {
            for try await notification in notifications {
                if inFlight >= maximumInFlight { await report(await mailbox.take()) }
                Delivery(notification, client: self, sink: mailbox).start()
                inFlight += 1
                let ready = mailbox.takeAvailable()
                if !ready.isEmpty { await report(ready) }
                if Task.isCancelled { break }
            }
        } catch {
            while inFlight > 0 { await report(await mailbox.take()) }
            throw error
        }
        while inFlight > 0 { await report(await mailbox.take()) }
    }

    /// The bulk send over an input the transport's thread can read: the window is refilled where the
    /// answers arrive (``BulkPump``); this task reports results, and reads the input itself only when
    /// nothing is under way and the input had nothing ready.
    private func send<Notifications: AsyncSequence & Sendable>(
        pumping source: any SynchronousNotificationSource, _ notifications: Notifications, maximumInFlight: Int,
        onResult: (APNsNotification, APNsResult, Int) async -> Void
    ) async rethrows where Notifications.Element == APNsNotification {
        let pump = BulkPump(source: source, client: self, window: maximumInFlight)
        // Input that comes while the window has room and no answer is due is started where it arrives.
        source.onAvailable { [weak pump] in pump?.refill() }
        var iterator = notifications.makeAsyncIterator()
        pump.refill()
        while true {
            if Task.isCancelled { pump.stopReading(inputEnded: false) }
            switch pump.nextStep {
            case .done:
                return
            case .takeResults:
                var batch = await pump.mailbox.take()
                for index in 0..<batch.count {
                    await onResult(batch[index].notification, batch[index].result, batch[index].attempts)
                }
                pump.reported(batch.count)
                pump.mailbox.recycle(&batch)
                pump.refill()
            case .waitForInput:
                guard let notification = try await iterator.next() else {
                    pump.stopReading(inputEnded: true)
                    continue
                }
                pump.start(notification)
                pump.refill()
            }
        }
    }

    /// The same as a stream of results. Results wait in the stream's buffer until read, so read them as they
    /// come (or use ``send(_:maximumInFlight:onResult:)``, whose loop waits for the consumer). An
    /// `AsyncStream` carries no error: an input that can throw should go to
    /// ``send(_:maximumInFlight:onResult:)``, which throws its error; here it only ends the stream, after
    /// the results of what was read.
    public func send<Notifications: AsyncSequence & Sendable>(
        _ notifications: Notifications, maximumInFlight: Int = 1000
    ) -> AsyncStream<(notification: APNsNotification, result: APNsResult)>
    where Notifications.Element == APNsNotification {
        AsyncStream { continuation in
            let task = Task {
                // An input error can only end this stream (AsyncStream carries none): the results of what
                // was read come first. ``send(_:maximumInFlight:onResult:)`` throws it instead.
                try? await self.send(notifications, maximumInFlight: maximumInFlight) { continuation.yield(($0, $1)) }
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
