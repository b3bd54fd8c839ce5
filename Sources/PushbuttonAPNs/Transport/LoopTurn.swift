import Foundation

/// Something that wants to act once per turn of a transport's event loop rather than once per answer:
/// a result mailbox wakes its consumer once for all the answers one read brought, not for the first of them.
protocol LoopTurnObserver: AnyObject, Sendable {
    /// Called on the loop's thread at the end of the turn in which ``LoopTurn/deferToEnd(_:)`` was called.
    func turnEnded()
}

/// One turn of an event loop, as seen from the code the loop calls: while a loop thread handles the events of
/// one `poll`, work that need not happen per answer (waking another thread) is deferred to the turn's end,
/// so a read that brings 100 answers costs one wake-up instead of up to 100 (each a context switch that
/// also preempts the loop). Off a loop thread there is no current turn and callers act at once.
final class LoopTurn {
    private var observers: [any LoopTurnObserver] = []
    /// Guards against an observer that defers again from `turnEnded()` looping forever.
    private var ending = false
    /// The token ``freshToken(from:)`` read this turn, and its provider.
    private var token: (provider: TokenProvider, token: ProviderToken)?

    /// The turn of the calling thread's event loop, or nil off a loop thread.
    static var current: LoopTurn? {
        guard let pointer = pthread_getspecific(key) else { return nil }
        return Unmanaged<LoopTurn>.fromOpaque(pointer).takeUnretainedValue()
    }

    /// Makes this the calling thread's turn (the loop's thread, once, before it runs).
    func install() {
        pthread_setspecific(Self.key, Unmanaged.passUnretained(self).toOpaque())
    }

    /// Removes the calling thread's turn (the loop's thread, as it exits).
    func uninstall() {
        end()
        pthread_setspecific(Self.key, nil)
    }

    /// `observer` is called at the end of this turn. Called on the loop's thread only.
    func deferToEnd(_ observer: any LoopTurnObserver) {
        observers.append(observer)
    }

    /// `provider`'s fresh token (``TokenProvider/freshToken()``), read once per turn: a turn starts many
    /// requests, and a clock read and a lock for each were a fifth of the cost of starting one. A token
    /// minted meanwhile is used from the next turn on (a turn lasts milliseconds).
    func freshToken(from provider: TokenProvider) -> ProviderToken? {
        if let token, token.provider === provider { return token.token }
        guard let fresh = provider.freshToken() else { return nil }
        token = (provider, fresh)
        return fresh
    }

    /// Ends the turn: every deferred observer is called once, in order.
    func end() {
        defer { token = nil }
        guard !ending, !observers.isEmpty else { return }
        ending = true
        var index = 0
        while index < observers.count {  // an observer may defer another one meanwhile
            observers[index].turnEnded()
            index += 1
        }
        observers.removeAll(keepingCapacity: true)
        ending = false
    }

    /// The thread-specific slot, created once for the process (never deleted: loops come and go).
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()
}
