/// When a PostgreSQL connection that lost its server may try to connect again: at once the first time, then
/// after a delay that doubles with each failed attempt, up to ``ceiling``.
///
/// Nothing waits here: a statement that finds its connection gone while the delay runs fails at once (the
/// gateway answers 503 without holding the request), and the first statement after the delay tries again.
/// Times are what the injected clock says has elapsed, so tests drive them.
struct ReconnectBackoff: Sendable {
    /// The delay after the first failed attempt.
    static let first: Duration = .milliseconds(100)
    /// The longest delay: how late, at most, a gateway notices that its database is back.
    static let ceiling: Duration = .seconds(2)

    private var delay: Duration = .zero
    private var notBefore: Duration = .zero

    /// How long from `now` until the next attempt is allowed (zero: now).
    func remaining(at now: Duration) -> Duration { max(.zero, notBefore - now) }

    /// An attempt to connect failed at `now`: the next one waits twice as long as the last, up to the ceiling.
    mutating func failed(at now: Duration) {
        delay = delay == .zero ? Self.first : min(delay * 2, Self.ceiling)
        notBefore = now + delay
    }

    /// A connection was made: the next loss tries again at once.
    mutating func succeeded() {
        delay = .zero
        notBefore = .zero
    }
}
