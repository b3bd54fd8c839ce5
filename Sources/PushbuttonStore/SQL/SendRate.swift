import Foundation

/// A throttled campaign's rate (`throttle_per_minute`), shared by every process: one `campaign_rates` row
/// holds the campaign's next free send slot, locked and moved on in the transaction of the lease that takes
/// recipients (after its batches, as every lease locks them: no two leases wait on each other). A lease
/// takes at most what the slots up to now allow, at most a tenth of a second's worth at once (a worker that
/// woke late catches up by leasing again at once, up to a second's slots), and pushes the rest of the
/// campaign's batches to the time the next burst is due, so the sends spread evenly whichever processes are
/// alive, and no worker polls for them.
enum SendRate {
    /// How many recipients a lease may take at `now` of a campaign sending `perMinute` a minute whose next free
    /// slot is `nextSlot`, wanting `wanted`; and the next free slot after those: at most one
    /// ``burst(perMinute:)``. Slots unused while nothing leased (a quiet worker, a process down) do not pile up
    /// beyond one ``catchUp(perMinute:)``.
    static func grant(perMinute: Int, nextSlot: Date, wanted: Int, now: Date) -> (granted: Int, nextSlot: Date) {
        let interval = self.interval(perMinute: perMinute)
        let base = max(nextSlot, now - Double(catchUp(perMinute: perMinute) - 1) * interval)
        guard base <= now, wanted > 0 else { return (0, nextSlot) }
        let available = Int(((now.timeIntervalSince(base)) / interval).rounded(.down)) + 1
        let granted = min(available, wanted, burst(perMinute: perMinute))
        return (granted, base + Double(granted) * interval)
    }

    /// The seconds between two sends of a campaign sending `perMinute` a minute.
    static func interval(perMinute: Int) -> TimeInterval { 60 / Double(max(perMinute, 1)) }

    /// The most a lease takes at once: a tenth of a second's worth (at least one). A whole second's worth came
    /// as one clump a second: the APNs arrivals of a 3,000/min campaign were gaps of a second between clumps
    /// of 50 (`Benchmarks/campaign-timing.sh`).
    static func burst(perMinute: Int) -> Int { max(1, perMinute / 600) }

    /// The unused slots a lease may still take (one second's worth): a worker that woke a little late (a loaded
    /// machine) catches up instead of the campaign running slow.
    static func catchUp(perMinute: Int) -> Int { max(1, perMinute / 60) }

    /// When the rest of a campaign whose next free slot is `nextSlot` is due again: once a whole
    /// ``burst(perMinute:)`` is free, so a worker wakes about ten times a second for it, not once per recipient.
    static func resume(after nextSlot: Date, perMinute: Int) -> Date {
        nextSlot + Double(burst(perMinute: perMinute) - 1) * interval(perMinute: perMinute)
    }

    /// When a campaign with `remaining` recipients still to send finishes at its rate, its next free slot
    /// being `nextSlot` (not before `now`).
    static func expectedFinish(remaining: Int, nextSlot: Date, perMinute: Int, now: Date) -> Date {
        max(nextSlot, now) + Double(max(remaining - 1, 0)) * interval(perMinute: perMinute)
    }

    /// The held reason of a batch pushed back by its campaign's rate.
    static let throttled = "throttle"
}
