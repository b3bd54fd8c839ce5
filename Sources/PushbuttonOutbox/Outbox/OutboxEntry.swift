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

    /// The entry's row id, stable for its life.
    public var id: Int64
    /// Sent as the `Idempotency-Key` header with every attempt.
    public var idempotencyKey: String
    /// Where the request goes (a drain's `endpoint` replaces its origin).
    public var url: String
    /// The HTTP method, as `POST`.
    public var method: String
    /// The JSON body, sent with `Content-Type: application/json`; `nil` for none.
    public var body: JSONValue?
    /// Where the entry is in its life.
    public var state: State
    /// Attempts made so far (an attempt is counted when it is claimed, before it is sent).
    public var attempts: Int
    /// When it was enqueued (the outbox's clock).
    public var createdAt: Date
    /// When it is due next.
    public var nextAttemptAt: Date
    /// When it is dead-lettered if not delivered.
    public var expiresAt: Date
    /// When the backend acknowledged it.
    public var deliveredAt: Date?
    /// The last failure as one line (an HTTP status, a network error, why it was dead-lettered).
    public var lastError: String?
    /// The last failure, typed; `nil` when there was none, or for one recorded before Pushbutton kept its kind.
    public var lastCause: OutboxFailure?
    /// The notification whose tap made it.
    public var notificationIdentifier: String?
    /// The action (button) that made it.
    public var actionIdentifier: String?
}

/// The counts `pushbutton outbox status` shows.
public struct OutboxStatus: Sendable, Hashable {
    /// Entries waiting for their first attempt or their next retry.
    public var pending: Int
    /// Entries a delivery worker is sending now.
    public var inFlight: Int
    /// Entries the backend acknowledged (a 2xx), kept for ``OutboxOptions/deliveredRetention``.
    public var delivered: Int
    /// Entries given up on (attempts or time to live ran out, refused for good, evicted): the dead letters.
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
    /// Requests made.
    public var attempted = 0
    /// Requests the backend acknowledged (a 2xx).
    public var delivered = 0
    /// Failed attempts scheduled for a retry.
    public var retried = 0
    /// Entries moved to the dead letters during the drain.
    public var deadLettered = 0
    /// Entries found in flight from a worker that died, put back to pending.
    public var recovered = 0
    /// Entries still waiting (pending or in flight) when the drain ended.
    public var remaining = 0
    /// Why the drain stopped early, if it did.
    public var stoppedBecause: String?
}
