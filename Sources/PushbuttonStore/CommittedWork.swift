import Foundation
import PushbuttonSupport

/// Tells observers (the gateway's idle workers) that recipients may have become due: an intake in this
/// process calls ``committed()`` once its transaction has committed, and on PostgreSQL a ``PostgresListener``
/// hears the `NOTIFY` another process sent once its intake had committed (``PostgresNotifier``). The listener runs while someone
/// observes.
final class CommittedWork: Sendable {
    /// The PostgreSQL channel the intakes notify.
    static let channel = "pushbutton_work"

    private struct State {
        var observers: [Int: @Sendable () -> Void] = [:]
        var nextObserver = 0
        var listener: PostgresListener?
        /// Intakes begun (``intakeBegan()``) and not yet ended.
        var inFlight = 0
        /// Commits since the observers were last called.
        var unannounced = 0
        /// How many times the observers were called, and for how many commits (for tests and metrics).
        var announcements = 0
        var commits = 0
    }

    /// At most this many commits share one wake while intakes keep overlapping: under a steady stream the
    /// workers still wake (a lease every this many requests, not one per request).
    static let commitsPerWake = 64

    /// Where to `LISTEN` (PostgreSQL), with credentials; nil for SQLite (one process).
    private let listenURL: String?
    /// The listener's first reconnection delay.
    let listenerRetry: Duration
    /// This process's `NOTIFY` payload, told apart from other processes' so it is not heard back.
    let origin = UUID().uuidString.lowercased()
    private let state = Locked(State())

    init(listenURL: String? = nil, listenerRetry: Duration = .milliseconds(100)) {
        self.listenURL = listenURL
        self.listenerRetry = listenerRetry
    }

    /// Calls every observer (on the caller's thread: observers only wake someone), now or, while other
    /// intakes are under way, when the last of them ends (``intakeEnded()``) or ``commitsPerWake`` commits
    /// have gathered: concurrent intakes wake the workers once for the group, so a woken worker leases what
    /// they committed together instead of competing with each for SQLite's one writer.
    func committed() {
        let observers = state.withLock { state -> [@Sendable () -> Void] in
            state.unannounced += 1
            state.commits += 1
            return Self.announce(&state)
        }
        for observer in observers { observer() }
    }

    /// An intake that may commit work is starting: its commit, and any while it runs, wake the workers when
    /// it (or the last one under way) ends.
    func intakeBegan() {
        state.withLock { $0.inFlight += 1 }
    }

    /// The intake begun with ``intakeBegan()`` has ended (committed, rolled back or failed).
    func intakeEnded() {
        let observers = state.withLock { state -> [@Sendable () -> Void] in
            state.inFlight -= 1
            return Self.announce(&state)
        }
        for observer in observers { observer() }
    }

    /// The observers to call now: when commits wait and no intake is under way, or enough have gathered.
    private static func announce(_ state: inout State) -> [@Sendable () -> Void] {
        guard state.unannounced > 0, state.inFlight <= 0 || state.unannounced >= commitsPerWake else {
            return []
        }
        state.unannounced = 0
        state.announcements += 1
        return Array(state.observers.values)
    }

    /// How many times the observers were called, and for how many commits, so far.
    var wakes: (announcements: Int, commits: Int) { state.withLock { ($0.announcements, $0.commits) } }

    /// The running listener, if any (tests drop its connection and wait for it to notice).
    var listener: PostgresListener? { state.withLock { $0.listener } }

    func observe(_ wake: @escaping @Sendable () -> Void) -> WorkObservation {
        let (id, start) = state.withLock { state -> (Int, Bool) in
            defer { state.nextObserver += 1 }
            state.observers[state.nextObserver] = wake
            return (state.nextObserver, state.observers.count == 1 && state.listener == nil)
        }
        if start, let listenURL {
            let listener = PostgresListener(
                url: listenURL, channel: Self.channel, origin: origin, retry: listenerRetry
            ) { [weak self] _ in self?.committed() }
            let keep = state.withLock { state -> Bool in
                guard state.listener == nil, !state.observers.isEmpty else { return false }
                state.listener = listener
                return true
            }
            if !keep { listener.stop() }
        }
        return WorkObservation { [weak self] in self?.stopObserving(id) }
    }

    private func stopObserving(_ id: Int) {
        let listener = state.withLock { state -> PostgresListener? in
            state.observers[id] = nil
            guard state.observers.isEmpty else { return nil }
            defer { state.listener = nil }
            return state.listener
        }
        listener?.stop()
    }
}
