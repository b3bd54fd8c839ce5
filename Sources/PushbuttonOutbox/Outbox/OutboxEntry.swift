import Foundation
import Pushbutton

/// One delivery in the outbox.
public struct OutboxEntry: Sendable, Hashable {
    /// Where an entry is in its life.
    public enum State: String, Sendable, Hashable, CaseIterable {
        case pending
        case inFlight = "in_flight"
        case delivered
        /// Dead-lettered: given up on, with ``OutboxEntry/lastError`` saying why. Kept until purged.
        case dead
    }

    public var id: Int64
    /// Sent as the `Idempotency-Key` header with every attempt.
    public var idempotencyKey: String
    public var url: String
    public var method: String
    public var body: JSONValue?
    public var state: State
    public var attempts: Int
    public var createdAt: Date
    public var nextAttemptAt: Date
    public var expiresAt: Date
    public var deliveredAt: Date?
    public var lastError: String?
    /// The last failure, typed; `nil` when there was none, or for one recorded before Pushbutton kept its kind.
    public var lastCause: OutboxFailure?
    public var notificationIdentifier: String?
    public var actionIdentifier: String?
}

/// The counts `pushbutton outbox status` shows.
public struct OutboxStatus: Sendable, Hashable {
    public var pending: Int
    public var inFlight: Int
    public var delivered: Int
    public var dead: Int
    /// How long the oldest pending entry has waited.
    public var oldestPendingAge: TimeInterval?
}

/// What one ``Outbox/enqueue(_:)`` did.
public enum EnqueueResult: Sendable, Hashable {
    /// Stored, under this id.
    case added(Int64)
    /// An entry with the same idempotency key is already stored; nothing changed.
    case duplicate
    /// Stored, after evicting the oldest pending entry (its key) under ``OutboxOptions/WhenFull/deadLetterOldest``.
    case addedEvicting(Int64, evictedKey: String)
}

/// What one drain did.
public struct DrainReport: Sendable, Hashable {
    public var attempted = 0
    public var delivered = 0
    /// Failed attempts scheduled for a retry.
    public var retried = 0
    public var deadLettered = 0
    /// Entries found in flight from a worker that died, put back to pending.
    public var recovered = 0
    /// Entries still waiting (pending or in flight) when the drain ended.
    public var remaining = 0
    /// Why the drain stopped early, if it did.
    public var stoppedBecause: String?
}
