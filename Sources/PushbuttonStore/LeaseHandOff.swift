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
/// only while more workers wait idle than there are recipients handed to them and not taken yet
/// (``claim()``); otherwise it queues as before and raises the workers' signal.
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
    }

    private let state = Locked(State())
    /// How long a lease taken at intake lasts (the workers' lease length; they renew it while they send).
    public let leaseSeconds: TimeInterval
    /// Called after recipients were handed over: wakes one idle worker.
    private let wake: @Sendable () -> Void

    /// `leaseSeconds`: the workers' lease; `wake`: wakes one idle worker (without making the others lease).
    public init(leaseSeconds: TimeInterval, wake: @escaping @Sendable () -> Void) {
        self.leaseSeconds = leaseSeconds
        self.wake = wake
    }

    // MARK: The workers' side

    /// A worker is about to wait for work (`true`) or stopped waiting (`false`).
    public func setIdle(_ idle: Bool) {
        state.withLock { $0.idle += idle ? 1 : -1 }
    }

    /// The oldest recipients handed over and not taken yet. Those whose lease is past half its length by `now`
    /// (no worker took them in time) are not sent from here: their lease runs out and a lease takes them again,
    /// so they are never sent by two holders at once.
    public func take(now: Date) -> [LeasedDelivery]? {
        state.withLock { state in
            while !state.handed.isEmpty {
                let first = state.handed.removeFirst()
                if first.until.timeIntervalSince(now) >= leaseSeconds / 2 { return first.leased }
                state.takenLate += 1
            }
            return nil
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

    // MARK: The intake's side

    /// Reserves an idle worker for one notification about to be committed: `false` when none is free.
    func claim() -> Bool {
        state.withLock { state in
            guard !state.closed, state.claimed + state.handed.count < state.idle else { return false }
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
