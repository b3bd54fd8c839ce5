import Foundation
import PushbuttonSupport

/// Hands a single notification's recipients from the intake straight to an idle worker of this process: the
/// intake's transaction creates their queue batch already leased (to this process, for ``leaseSeconds``), and
/// once it has committed the leased recipients are given to the worker in memory. No second write transaction
/// (on SQLite, no second fsync), no wake-up of other processes and no lease statement between the commit and
/// the send.
///
/// The lease is an ordinary one: if this process dies holding it (before the worker took it, or mid-send), it
/// runs out and any process leases the recipients again with the same `apns-id`s. An intake claims a worker
/// while more workers wait idle than there are notifications handed to them and not taken yet, or — with a
/// ``busyBacklog`` — while a worker of this process is on a small batch or between batches after one
/// (``setWaitedFor(_:)``: free again in about an APNs round trip) and fewer than that many wait for it
/// (``claim()``); that worker takes them all at its next turn (``take(now:limit:)``). Otherwise it queues as
/// before and raises the workers' signal (a worker busy with a campaign's large batch is not waited for: an idle
/// one elsewhere leases it). Under load that spares each notification the queue: no `NOTIFY`, and no lease
/// transaction of its own.
public final class LeaseHandOff: Sendable {
    private struct State {
        /// Workers waiting for work now.
        var idle = 0
        /// Intakes that claimed a worker and have not handed over (or given up) yet.
        var claimed = 0
        /// Leased recipients committed and not taken by a worker yet, oldest first.
        var handed: [(leased: [LeasedDelivery], until: Date)] = []
        var closed = false
        var handedOff = 0
        var takenLate = 0
        var busyClaims = 0
        /// Workers notifications may wait for (``LeaseHandOff/setWaitedFor(_:)``).
        var waitedFor = 0
    }

    private let state = Locked(State())
    /// How long a lease taken at intake lasts (the workers' lease length; they renew it while they send).
    public let leaseSeconds: TimeInterval
    /// How many notifications may wait handed over for this process's busy workers (none waiting idle); 0:
    /// only an idle worker is handed one.
    public let busyBacklog: Int
    /// Called after recipients were handed over: wakes one idle worker.
    private let wake: @Sendable () -> Void

    /// `leaseSeconds`: the workers' lease; `busyBacklog`: how many notifications may wait for a busy worker;
    /// `wake`: wakes one idle worker (without making the others lease).
    public init(leaseSeconds: TimeInterval, busyBacklog: Int = 0, wake: @escaping @Sendable () -> Void) {
        self.leaseSeconds = leaseSeconds
        self.busyBacklog = max(0, busyBacklog)
        self.wake = wake
    }

    // MARK: The workers' side

    /// A worker is about to wait for work (`true`) or stopped waiting (`false`).
    public func setIdle(_ idle: Bool) {
        state.withLock { $0.idle += idle ? 1 : -1 }
    }

    /// A worker becomes one notifications may wait for in the ``busyBacklog`` (`true`: it is on a small batch,
    /// or between batches after one) or stops being one (`false`: a large batch, a stall, a stop). Each `true`
    /// is matched by one `false`.
    public func setWaitedFor(_ waitedFor: Bool) {
        state.withLock { $0.waitedFor += waitedFor ? 1 : -1 }
    }

    /// Whether a worker with a batch of `count` recipients is waited for (``setWaitedFor(_:)``): a small batch
    /// is sent in about an APNs round trip; a campaign's large one is not (an idle worker elsewhere leases the
    /// notification sooner).
    public static func waitsFor(batchOf count: Int) -> Bool { count <= smallBatch }

    /// The most recipients a batch may have for its worker to be waited for.
    public static let smallBatch = 64

    /// The recipients handed over and not taken yet, oldest first: as many notifications' as fit in `limit`
    /// recipients (at least one's), so a worker that was busy takes what waited for it in one batch. Those whose
    /// lease is past half its length by `now` (no worker took them in time) are not sent from here: their lease
    /// runs out and a lease takes them again, so they are never sent by two holders at once.
    public func take(now: Date, limit: Int = .max) -> [LeasedDelivery]? {
        state.withLock { state in
            var taken: [LeasedDelivery] = []
            while let first = state.handed.first {
                guard first.until.timeIntervalSince(now) >= leaseSeconds / 2 else {
                    state.handed.removeFirst()
                    state.takenLate += 1
                    continue
                }
                guard taken.isEmpty || taken.count + first.leased.count <= limit else { break }
                state.handed.removeFirst()
                if taken.isEmpty { taken = first.leased } else { taken += first.leased }
            }
            return taken.isEmpty ? nil : taken
        }
    }

    /// Stops handing over (the workers are stopping); the recipients handed and not taken, to give back.
    public func close() -> [LeasedDelivery] {
        state.withLock { state in
            state.closed = true
            defer { state.handed.removeAll() }
            return state.handed.flatMap(\.leased)
        }
    }

    /// Notifications handed over so far, and those not taken in time (left to their lease's end).
    public var counts: (handedOff: Int, takenLate: Int) {
        state.withLock { ($0.handedOff, $0.takenLate) }
    }

    /// Claims made with no worker idle, for a busy one (``busyBacklog``), so far.
    public var busyClaims: Int {
        state.withLock { $0.busyClaims }
    }

    // MARK: The intake's side

    /// Reserves a worker for one notification about to be committed: an idle one, or else a place in the
    /// ``busyBacklog`` of a worker sending a small batch; `false` when neither is free (or the workers are
    /// stopping).
    func claim() -> Bool {
        state.withLock { state in
            let waiting = state.claimed + state.handed.count
            let backlog = state.waitedFor > 0 ? busyBacklog : 0
            guard !state.closed, waiting < max(state.idle, backlog) else { return false }
            if waiting >= state.idle { state.busyClaims += 1 }
            state.claimed += 1
            return true
        }
    }

    /// Gives back a claim whose transaction did not commit.
    func unclaim() {
        state.withLock { $0.claimed -= 1 }
    }

    /// Hands a claimed notification's recipients, leased until `until`, to the workers after its commit.
    func hand(_ leased: [LeasedDelivery], until: Date) {
        state.withLock { state in
            state.claimed -= 1
            state.handed.append((leased, until))
            state.handedOff += 1
        }
        wake()
    }
}
