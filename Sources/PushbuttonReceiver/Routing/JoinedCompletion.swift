import PushbuttonSupport

/// One completion handler shared by several participants (Pushbutton's router and the delegate that was
/// installed before it): it runs once all of them are done, or at the deadline if one never answers, and
/// never twice.
public final class JoinedCompletion: Sendable {
    private struct State {
        var remaining: Int
        var handler: SystemHandler?
    }

    /// The system's completion handler, carried across threads. `@unchecked Sendable` because Apple documents
    /// that any thread may call it, and `state` hands it out at most once.
    private struct SystemHandler: @unchecked Sendable {
        let call: () -> Void
    }

    private let state: Locked<State>
    private let timer = Locked<Task<Void, Never>?>(nil)

    /// - Parameters:
    ///   - parts: how many participants must call ``part()``.
    ///   - deadline: when to run the handler anyway (`nil`: never).
    ///   - completion: the system's handler (any thread may call it, as Apple documents).
    public init<C: Clock>(parts: Int, deadline: Duration?, clock: C, completion: @escaping () -> Void)
    where C.Duration == Duration, C: Sendable {
        state = Locked(State(remaining: parts, handler: SystemHandler(call: completion)))
        if parts <= 0 {
            finish()
        } else if let deadline {
            let clock = AnyDurationClock(clock)
            timer.withLock {
                $0 = Task { [weak self] in
                    do {
                        try await clock.sleep(for: deadline)
                        self?.finish()
                    } catch {
                        // Cancelled: every participant answered in time.
                    }
                }
            }
        }
    }

    public convenience init(parts: Int, deadline: Duration?, completion: @escaping () -> Void) {
        self.init(parts: parts, deadline: deadline, clock: ContinuousClock(), completion: completion)
    }

    /// One participant is done.
    public func part() {
        let done = state.withLock { state -> Bool in
            state.remaining -= 1
            return state.remaining == 0
        }
        if done { finish() }
    }

    /// Whether the handler has run.
    public var hasCompleted: Bool { state.withLock { $0.handler == nil } }

    private func finish() {
        let handler = state.withLock { state -> SystemHandler? in
            defer { state.handler = nil }
            return state.handler
        }
        guard let handler else { return }
        timer.withLock { $0?.cancel() }
        handler.call()
    }
}
