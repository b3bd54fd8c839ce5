/// Exponential backoff with "equal jitter": the delay doubles from `base` up to `maximum`, and half of it is
/// random, so retries from many clients spread out without any of them retrying at once. The sender's
/// retry policy and the outbox use it.
package enum Backoff {
    /// The delay after `attempt` (1-based) failed; `jitter` is a random number in 0...1.
    package static func delay(afterAttempt attempt: Int, base: Duration, maximum: Duration, jitter: Double)
        -> Duration
    {
        let exponential = base * (1 << min(max(attempt - 1, 0), 20))
        let capped = min(exponential, maximum)
        return capped / 2 + capped * (jitter / 2)
    }
}
