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
    // `source`, `client`, `window` and `onResult` are constants. No two accesses overlap, so the properties
    // used per notification skip the runtime's exclusivity checks (`@exclusivity(unchecked)`).
    typealias ResultHandler = @Sendable (APNsNotification, APNsResult, Int) -> Void
    /// A result waiting for the end of the loop's turn. A struct, not a tuple: a tuple's elements are copied
    /// through the runtime's generic value witnesses.
    private struct TurnResult {
        let delivery: Delivery
        let result: APNsResult
        let attempts: Int
    }
    private let lock = NSLock()
    private let source: any SynchronousNotificationSource
    private let client: APNsClient
    private let window: Int
    private let onResult: ResultHandler
    @exclusivity(unchecked) private var inFlight = 0
    /// Finished deliveries, started again for the next notifications: one allocation fewer per notification.
    @exclusivity(unchecked) private var spare: [Delivery] = []
    @exclusivity(unchecked) private var inputFinished = false
    @exclusivity(unchecked) private var stopped = false
    /// Set while one thread starts deliveries (see ``BulkPump``'s).
    @exclusivity(unchecked) private var refilling = false
    /// The caller, waiting for the last result.
    private var completion: CheckedContinuation<Void, Never>?
    private var completed = false
    /// Results finished during the current loop turn, handed on at its end: each with its delivery, whose
    /// notification is read in place then (no copy of it), and which goes back to `spare` only afterwards.
    @exclusivity(unchecked) private var turnResults: [TurnResult] = []
    /// An emptied list of results kept for the next turn (no allocation per turn).
    @exclusivity(unchecked) private var spareResults: [TurnResult] = []
    /// Whether a loop turn will hand `turnResults` on.
    @exclusivity(unchecked) private var resultsDeferred = false
    /// Results finished and not yet handed on: the caller resumes only once none is left.
    @exclusivity(unchecked) private var resultsOwed = 0

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

    /// Hands a result on (at the end of the loop's turn, on a loop thread), frees its place in the window
    /// and starts the next notifications. The result is registered and the next notification taken under
    /// one lock.
    func finished(_ delivery: Delivery, _ result: APNsResult, attempts: Int) {
        if let turn = LoopTurn.current {
            var register = false
            var caller: CheckedContinuation<Void, Never>?
            var reused: Delivery?
            let next = lock.withLock { () -> APNsNotification? in
                inFlight -= 1
                // Owed until handed on, so the caller's task resumes after the last one.
                resultsOwed += 1
                turnResults.append(TurnResult(delivery: delivery, result: result, attempts: attempts))
                register = !resultsDeferred
                resultsDeferred = true
                return beginRefill(&caller, &reused)
            }
            if register { turn.deferToEnd(self) }
            refill(from: next, reusing: reused, caller: caller)
        } else {
            // Handed on before the delivery stops counting, so the caller's task resumes after the last one.
            onResult(delivery.notification, result, attempts)
            var caller: CheckedContinuation<Void, Never>?
            var reused: Delivery?
            let next = lock.withLock { () -> APNsNotification? in
                inFlight -= 1
                spare.append(delivery)
                return beginRefill(&caller, &reused)
            }
            refill(from: next, reusing: reused, caller: caller)
        }
    }

    func turnEnded() {
        var results = lock.withLock { () -> [TurnResult] in
            resultsDeferred = false
            var taken = spareResults
            spareResults = []
            swap(&taken, &turnResults)
            return taken
        }
        for index in results.indices {
            onResult(results[index].delivery.notification, results[index].result, results[index].attempts)
        }
        let caller = lock.withLock { () -> CheckedContinuation<Void, Never>? in
            resultsOwed -= results.count
            // Their notifications are handed on: the deliveries may carry the next ones.
            for index in results.indices { spare.append(results[index].delivery) }
            results.removeAll(keepingCapacity: true)
            if spareResults.capacity < results.capacity { swap(&spareResults, &results) }
            return completionIfDone()
        }
        caller?.resume()
    }

    /// Starts notifications from the input while the window has room; resumes the caller once nothing is
    /// under way and nothing more will be read.
    func refill() {
        var caller: CheckedContinuation<Void, Never>?
        var reused: Delivery?
        let first = lock.withLock { beginRefill(&caller, &reused) }
        refill(from: first, reusing: reused, caller: caller)
    }

    /// Starts `first` (on `reused` when there is one) and the notifications after it, taking each under the
    /// lock, until there is none; then resumes `caller` (or the one the last take returned) when all is done.
    /// The notifications are moved from the input to their deliveries, never copied (no tuple either: a
    /// tuple holding one is copied through the runtime's generic value witnesses).
    private func refill(
        from first: consuming APNsNotification?, reusing reused: consuming Delivery?,
        caller: CheckedContinuation<Void, Never>?
    ) {
        var caller = caller
        var next = first
        var delivery = reused
        while let notification = next.take() {
            Delivery.start(notification, reusing: delivery.take(), client: client, sink: self)
            next = lock.withLock { take(&caller, &delivery) }
        }
        caller?.resume()
    }

    /// Under the lock: becomes the thread that refills (unless another one is) and takes the first notification.
    private func beginRefill(
        _ caller: inout CheckedContinuation<Void, Never>?, _ reused: inout Delivery?
    ) -> APNsNotification? {
        if refilling { return nil }
        refilling = true
        return take(&caller, &reused)
    }

    /// Under the lock, while refilling: the next notification to start (counted as under way), with a
    /// finished delivery to start it with in `reused` when there is one; or none, leaving `refilling` (and
    /// setting `caller` when all is done).
    private func take(
        _ caller: inout CheckedContinuation<Void, Never>?, _ reused: inout Delivery?
    ) -> APNsNotification? {
        guard !stopped, !inputFinished, inFlight < window else {
            refilling = false
            caller = completionIfDone()
            return nil
        }
        switch source.poll() {
        case .notification(let notification):
            inFlight += 1
            reused = spare.popLast()
            return notification
        case .empty:
            refilling = false
            return nil
        case .finished:
            inputFinished = true
            refilling = false
            caller = completionIfDone()
            return nil
        }
    }

    /// No more input is read (the caller's task was cancelled); what is under way finishes.
    func stopReading() {
        lock.withLock {
            stopped = true
            return completionIfDone()
        }?.resume()
    }

    /// Under the lock: the caller's continuation, taken, once nothing is under way or owed and nothing more
    /// will be read.
    private func completionIfDone() -> CheckedContinuation<Void, Never>? {
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
}
