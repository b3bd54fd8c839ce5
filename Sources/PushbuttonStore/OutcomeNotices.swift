import Foundation
import PushbuttonSupport

/// Tells this process's waiting requests (`"wait_seconds"`) that another process recorded outcomes of the
/// notifications they wait for: on PostgreSQL the recording transaction sends a `NOTIFY` on ``channel`` for
/// the notifications whose request waits (and only for those: a campaign's outcomes send none), and a
/// ``PostgresListener`` hears it here. The listener runs while someone observes.
final class OutcomeNotices: Sendable {
    /// The PostgreSQL channel the recorders notify.
    static let channel = "pushbutton_outcomes"
    /// The most bytes of notification ids one `NOTIFY` carries (PostgreSQL refuses payloads of 8,000).
    static let payloadBytes = 7_000

    private struct State {
        var observers: [Int: @Sendable (_ notifications: [String]?) -> Void] = [:]
        var nextObserver = 0
        var listener: PostgresListener?
    }

    /// Where to `LISTEN` (PostgreSQL), with credentials; nil for SQLite (one process).
    private let listenURL: String?
    private let listenerRetry: Duration
    /// This process's first word of its payloads, told apart from other processes' so it is not heard back.
    let origin: String
    private let state = Locked(State())

    init(listenURL: String? = nil, listenerRetry: Duration = .milliseconds(100), origin: String) {
        self.listenURL = listenURL
        self.listenerRetry = listenerRetry
        self.origin = origin
    }

    /// The payloads telling other processes that `ids`' outcomes were recorded: this process's origin, then
    /// ids separated by spaces, each payload under ``payloadBytes``.
    static func payloads(origin: String, ids: [String]) -> [String] {
        var payloads: [String] = []
        var current = origin
        for id in ids {
            if current.utf8.count + 1 + id.utf8.count > payloadBytes, current != origin {
                payloads.append(current)
                current = origin
            }
            current += " " + id
        }
        if current != origin { payloads.append(current) }
        return payloads
    }

    /// The running listener, if any (tests wait for it to listen).
    var listener: PostgresListener? { state.withLock { $0.listener } }

    func observe(_ heard: @escaping @Sendable (_ notifications: [String]?) -> Void) -> WorkObservation {
        let (id, start) = state.withLock { state -> (Int, Bool) in
            defer { state.nextObserver += 1 }
            state.observers[state.nextObserver] = heard
            return (state.nextObserver, state.observers.count == 1 && state.listener == nil)
        }
        if start, let listenURL {
            let listener = PostgresListener(
                url: listenURL, channel: Self.channel, origin: origin, retry: listenerRetry
            ) { [weak self] payloads in self?.heard(payloads) }
            let keep = state.withLock { state -> Bool in
                guard state.listener == nil, !state.observers.isEmpty else { return false }
                state.listener = listener
                return true
            }
            if !keep { listener.stop() }
        }
        return WorkObservation { [weak self] in self?.stopObserving(id) }
    }

    /// Calls the observers with the notifications the payloads name, or with nil when the listener (re)connected
    /// (what was told meanwhile is unknown: every waiting request reads its notification again).
    private func heard(_ payloads: [String]) {
        let ids: [String]? =
            payloads.isEmpty ? nil : payloads.flatMap { $0.split(separator: " ").dropFirst().map(String.init) }
        let observers = state.withLock { Array($0.observers.values) }
        for observer in observers { observer(ids) }
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
