import Foundation

/// A bulk send over a ``SynchronousNotificationSource``: each finished delivery takes the next notification
/// from the input and starts it right there, on the transport's thread, so the window of notifications
/// under way is refilled without waking the caller's task; results still reach the caller in batches,
/// through the mailbox. At most `reportLimit` results wait unreported: a slow consumer slows the sending,
/// and memory stays flat.
final class BulkPump: DeliverySink, @unchecked Sendable {
    // `@unchecked Sendable`: the counters are only reached under `lock`; `source`, `client`, `mailbox`
    // and `window` are constants.
    private let lock = NSLock()
    private let source: any SynchronousNotificationSource
    private let client: APNsClient
    let mailbox = ResultMailbox()
    private let window: Int
    /// How many results may wait for the caller before refilling pauses: more than the window, so
    /// the window stays full while the caller's task is being woken.
    private let reportLimit: Int
    private var inFlight = 0
    /// Finished deliveries, started again for the next notifications: one allocation fewer per notification.
    private var spare: [Delivery] = []
    private var unreported = 0
    private var inputFinished = false
    private var stopped = false
    /// Set while one thread starts deliveries, so a delivery that finishes at once (a refused request)
    /// does not start a nested refill; the running one goes on instead.
    private var refilling = false

    init(source: any SynchronousNotificationSource, client: APNsClient, window: Int) {
        self.source = source
        self.client = client
        self.window = max(1, window)
        reportLimit = max(self.window, 4096)
    }

    func finished(_ delivery: Delivery, _ result: APNsResult, attempts: Int) {
        // Copied before the delivery goes back to `spare`, where it may be restarted with another notification.
        let notification = delivery.notification
        lock.withLock {
            inFlight -= 1
            unreported += 1
            spare.append(delivery)
        }
        mailbox.finished(notification, result, attempts: attempts)
        refill()
    }

    /// Starts notifications from the input while the window has room.
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
    }

    /// The next notification to start (counted as under way) and a finished delivery to start it with, or
    /// nil, leaving `refilling`.
    private func take() -> (APNsNotification, Delivery?)? {
        lock.withLock {
            guard !stopped, !inputFinished, inFlight < window, unreported < reportLimit else {
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

    /// Starts a notification the caller read itself (after waiting for input).
    func start(_ notification: APNsNotification) {
        lock.withLock { inFlight += 1 }
        Delivery(notification, client: client, sink: self).start()
    }

    /// `count` results were reported.
    func reported(_ count: Int) {
        lock.withLock { unreported -= count }
    }

    /// No more input is read (the caller's task was cancelled, or the input ended).
    func stopReading(inputEnded: Bool) {
        lock.withLock {
            if inputEnded { inputFinished = true } else { stopped = true }
        }
    }

    /// What the caller does next.
    enum Next {
        /// Wait for results.
        case takeResults
        /// Nothing is under way or waiting and the input had nothing ready: wait for the input.
        case waitForInput
        case done
    }

    var nextStep: Next {
        lock.withLock {
            if inFlight > 0 || unreported > 0 { return .takeResults }
            return inputFinished || stopped ? .done : .waitForInput
        }
    }
}
