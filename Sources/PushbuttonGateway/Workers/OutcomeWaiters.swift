import Dispatch
import PushbuttonStore
import PushbuttonSupport

/// Requests that wait for their notification's outcomes (`"wait_seconds"`, gorush's sync mode): the
/// ``OutcomeRecorder`` calls ``recorded(_:)`` once outcomes are committed, which wakes the requests waiting on
/// those notifications to read them again; nothing polls the store. The deadline runs on the injected clock.
///
/// A waiting request holds one of the HTTP server's handler threads (its handlers are synchronous), so at most
/// ``maximumWaiters`` wait at once: past that a request is refused before anything is queued (`503` with
/// `retry-after`), and the other handler threads stay free for the rest of the API. Outcomes recorded by
/// another process (PostgreSQL) are heard from the store (``hear(_:)``), from the first wait on: the recording
/// process notifies the notifications whose request waits.
final class OutcomeWaiters: Sendable {
    /// One waiting request: woken by a recording of its notification or by its deadline.
    final class Ticket: Sendable {
        let notificationID: String
        fileprivate let semaphore = DispatchSemaphore(value: 0)
        private let expired = Locked(false)

        fileprivate init(notificationID: String) { self.notificationID = notificationID }

        fileprivate func expire() {
            expired.withLock { $0 = true }
            semaphore.signal()
        }

        fileprivate var hasExpired: Bool { expired.withLock { $0 } }
    }

    private struct State {
        var tickets: [String: [ObjectIdentifier: Ticket]] = [:]
        var admitted = 0
        var refused = 0
        var signals = 0
        /// Starts hearing other processes' recordings (``hear(_:)``), taken at the first wait.
        var startHearing: (@Sendable () -> WorkObservation)?
        var hearing: WorkObservation?
        var stopped = false
    }

    /// The most a request may ask to wait (`limits.maxWaitSeconds`).
    let maximumSeconds: Int
    /// The most requests waiting at once (`limits.maxWaiters`).
    let maximumWaiters: Int
    private let clock: AnyDurationClock
    private let state = Locked(State())

    init(maximumSeconds: Int = 10, maximumWaiters: Int = 4, clock: AnyDurationClock = .continuous) {
        self.maximumSeconds = maximumSeconds
        self.maximumWaiters = maximumWaiters
        self.clock = clock
    }

    /// Takes a waiting slot; `false` when ``maximumWaiters`` requests wait already. Give it back with
    /// ``leave()``.
    func admit() -> Bool {
        state.withLock { state in
            guard state.admitted < maximumWaiters else {
                state.refused += 1
                return false
            }
            state.admitted += 1
            return true
        }
    }

    /// Gives back a slot ``admit()`` took.
    func leave() { state.withLock { $0.admitted -= 1 } }

    /// Requests waiting now, requests refused so far, and tickets signalled so far (tests, metrics).
    var counts: (waiting: Int, refused: Int, signals: Int) {
        state.withLock { state in (state.tickets.values.reduce(0) { $0 + $1.count }, state.refused, state.signals) }
    }

    /// From the first wait on, hears the outcomes other processes record through `observe` (the store's
    /// ``GatewayStore/observeRecordedOutcomes(_:)``): a process that never waits opens no `LISTEN` connection.
    func hear(_ observe: @escaping @Sendable (_ heard: @escaping @Sendable ([String]?) -> Void) -> WorkObservation) {
        let start: @Sendable () -> WorkObservation = { [weak self] in
            observe { [weak self] notifications in
                guard let waiters = self else { return }
                if let notifications { waiters.recorded(notifications) } else { waiters.recordedAnywhere() }
            }
        }
        state.withLock { $0.startHearing = start }
    }

    /// Stops hearing other processes (the gateway stops); returns once the store's listener has stopped.
    func stopHearing() {
        let hearing = state.withLock { state -> WorkObservation? in
            state.stopped = true
            state.startHearing = nil
            defer { state.hearing = nil }
            return state.hearing
        }
        hearing?.cancel()
    }

    /// Starts hearing other processes at the first wait. Its listener, once it listens, wakes every waiting
    /// request to read again: an outcome recorded before it listened is not lost.
    private func startHearingOnce() {
        guard
            let start = state.withLock({ state -> (@Sendable () -> WorkObservation)? in
                defer { state.startHearing = nil }
                return state.startHearing
            })
        else { return }
        let observation = start()
        let keep = state.withLock { state -> Bool in
            guard !state.stopped else { return false }
            state.hearing = observation
            return true
        }
        if !keep { observation.cancel() }
    }

    /// Anything may have been recorded elsewhere (the listener connected again): every waiting request reads
    /// its notification again.
    func recordedAnywhere() {
        let woken = state.withLock { state -> [Ticket] in
            let woken = state.tickets.values.flatMap(\.values)
            state.signals += woken.count
            return woken
        }
        for ticket in woken { ticket.semaphore.signal() }
    }

    /// Outcomes of these notifications were committed: their waiting requests read them again.
    func recorded(_ notificationIDs: some Sequence<String>) {
        let woken = state.withLock { state -> [Ticket] in
            guard !state.tickets.isEmpty else { return [] }
            var woken: [Ticket] = []
            for id in Set(notificationIDs) {
                if let tickets = state.tickets[id] { woken += tickets.values }
            }
            state.signals += woken.count
            return woken
        }
        for ticket in woken { ticket.semaphore.signal() }
    }

    /// Blocks this (handler) thread until `isFinal()` is true, read once now and again after each recording of
    /// `notificationID`, or until `timeout` has passed on the clock; whether it ended final.
    func wait(for notificationID: String, timeout: Duration, isFinal: () -> Bool) -> Bool {
        let ticket = Ticket(notificationID: notificationID)
        let key = ObjectIdentifier(ticket)
        // Registered before the first read: a recording between that read and the wait is not lost.
        state.withLock { $0.tickets[notificationID, default: [:]][key] = ticket }
        startHearingOnce()
        defer {
            state.withLock { state in
                state.tickets[notificationID]?[key] = nil
                if state.tickets[notificationID]?.isEmpty == true { state.tickets[notificationID] = nil }
            }
        }
        if isFinal() { return true }
        clock.run(after: timeout) { [weak ticket] in ticket?.expire() }
        while true {
            ticket.semaphore.wait()
            if isFinal() { return true }
            if ticket.hasExpired { return false }
        }
    }
}
