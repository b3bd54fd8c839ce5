import Foundation
import PushbuttonSupport

/// Tells observers (the gateway's idle workers) that recipients may have become due: an intake in this
/// process calls ``committed()`` once its transaction has committed, and on PostgreSQL a ``PostgresListener``
/// hears the `NOTIFY` another process's intake sent in its transaction. The listener runs while someone
/// observes.
final class CommittedWork: Sendable {
    /// The PostgreSQL channel the intakes notify.
    static let channel = "pushbutton_work"

    private struct State {
        var observers: [Int: @Sendable () -> Void] = [:]
        var nextObserver = 0
        var listener: PostgresListener?
    }

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

    /// Calls every observer (on the caller's thread: observers only wake someone).
    func committed() {
        let observers = state.withLock { Array($0.observers.values) }
        for observer in observers { observer() }
    }

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
            ) { [weak self] in self?.committed() }
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
