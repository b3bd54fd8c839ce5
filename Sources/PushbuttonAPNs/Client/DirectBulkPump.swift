import Foundation

/// A bulk send over a ``SynchronousNotificationSource`` whose results go straight to a synchronous handler
/// on the thread where each delivery finishes (the transport's, almost always): no mailbox and no task
/// between the answer and its result, so a notification crosses no thread from the input to its result
/// line except the input's own. Each finished delivery hands its result on, then takes the next
/// notification from the input and starts it right there. The caller's task only waits for the end.
///
/// On a transport's loop thread a result is handed on at the end of the loop's turn, after the requests that
/// its answer's read refilled are written: the server works on them while the results are written down,
/// instead of waiting for the results of the whole read first (sender and server take turns on one
/// connection, so work done before the write sets the pace).
final class DirectBulkPump: DeliverySink, LoopTurnObserver, @unchecked Sendable {
    // `@unchecked Sendable`: the counters, the result lists and `completion` are only reached under `lock`;
    // `source`, `client`, `window` and `onResult` are constants.
    typealias ResultHandler = @Sendable (APNsNotification, APNsResult, Int) -> Void
    private let lock = NSLock()
    private let source: any SynchronousNotificationSource
    private let client: APNsClient
    private let window: Int
    private let onResult: ResultHandler
    private var inFlight = 0
    /// Finished deliveries, started again for the next notifications: one allocation fewer per notification.
    private var spare: [Delivery] = []
    private var inputFinished = false
    private var stopped = false
    /// Set while one thread starts deliveries (see ``BulkPump``'s).
    private var refilling = false
    /// The caller, waiting for the last result.
    private var completion: CheckedContinuation<Void, Never>?
    private var completed = false
    /// Results finished during the current loop turn, handed on at its end.
    private var turnResults: [(APNsNotification, APNsResult, Int)] = []
    /// An emptied list of results kept for the next turn (no allocation per turn).
    private var spareResults: [(APNsNotification, APNsResult, Int)] = []
    /// Whether a loop turn will hand `turnResults` on.
    private var resultsDeferred = false
    /// Results finished and not yet handed on: the caller resumes only once none is left.
    private var resultsOwed = 0

    init(source: any SynchronousNotificationSource, client: APNsClient, window: Int, onResult: @escaping ResultHandler)
    {
        self.source = source
        self.client = client
        self.window = max(1, window)
        self.onResult = onResult
    }

    /// Starts reading and sending; returns once every notification read has its result handed on.
    func run() async {
        await withCheckedContinuation { continuation in
            lock.withLock { completion = continuation }
            refill()
        }
    }

    func finished(_ notification: APNsNotification, _ result: APNsResult, attempts: Int) {
        settle(notification, result, attempts, delivery: nil)
    }

    func finished(_ delivery: Delivery, _ notification: APNsNotification, _ result: APNsResult, attempts: Int) {
        settle(notification, result, attempts, delivery: delivery)
    }

    /// Hands a result on (at the end of the loop's turn, on a loop thread), frees its place in the window
    /// and starts the next notifications.
    private func settle(_ notification: APNsNotification, _ result: APNsResult, _ attempts: Int, delivery: Delivery?) {
        if let turn = LoopTurn.current {
            let register = lock.withLock { () -> Bool in
                inFlight -= 1
                if let delivery { spare.append(delivery) }
                // Owed until handed on, so the caller's task resumes after the last one.
                resultsOwed += 1
                turnResults.append((notification, result, attempts))
                defer { resultsDeferred = true }
                return !resultsDeferred
            }
            if register { turn.deferToEnd(self) }
        } else {
            // Handed on before the delivery stops counting, so the caller's task resumes after the last one.
            onResult(notification, result, attempts)
            lock.withLock {
                inFlight -= 1
                if let delivery { spare.append(delivery) }
            }
        }
        refill()
    }

    func turnEnded() {
        var results = lock.withLock { () -> [(APNsNotification, APNsResult, Int)] in
            resultsDeferred = false
            var taken = spareResults
            spareResults = []
            swap(&taken, &turnResults)
            return taken
        }
        for (notification, result, attempts) in results { onResult(notification, result, attempts) }
        let handed = results.count
        results.removeAll(keepingCapacity: true)
        lock.withLock {
            resultsOwed -= handed
            if spareResults.capacity < results.capacity { spareResults = results }
        }
        resumeIfDone()
    }

    /// Starts notifications from the input while the window has room; resumes the caller once nothing is
    /// under way and nothing more will be read.
    func refill() {
        let begins = lock.withLock { () -> Bool in
            if refilling { return false }
            refilling = true
            return true
        }
        guard begins else { return }
        while let (notification, reused) = take() {
            Delivery.start(notification, reusing: reused, client: client, sink: self)
        }
        resumeIfDone()
    }

    /// The next notification to start (counted as under way) and a finished delivery to start it with, or
    /// nil, leaving `refilling`.
    private func take() -> (APNsNotification, Delivery?)? {
        lock.withLock {
            guard !stopped, !inputFinished, inFlight < window else {
                refilling = false
                return nil
            }
            switch source.poll() {
            case .notification(let notification):
                inFlight += 1
                return (notification, spare.popLast())
            case .empty:
                refilling = false
                return nil
            case .finished:
                inputFinished = true
                refilling = false
                return nil
            }
        }
    }

    /// No more input is read (the caller's task was cancelled); what is under way finishes.
    func stopReading() {
        lock.withLock { stopped = true }
        resumeIfDone()
    }

    private func resumeIfDone() {
        let caller = lock.withLock { () -> CheckedContinuation<Void, Never>? in
            guard !completed, !refilling, inFlight == 0, resultsOwed == 0, inputFinished || stopped,
                let waiting = completion
            else {
                return nil
            }
            completed = true
            completion = nil
            // The spare deliveries refer to this pump (their sink): let go of them, or a pump per batch
            // (the gateway's workers) would keep each batch's pump and last notifications for good.
            spare.removeAll()
            spareResults = []
            return waiting
        }
        caller?.resume()
    }
}
