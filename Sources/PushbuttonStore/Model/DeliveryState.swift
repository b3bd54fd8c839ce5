/// Where one recipient of a notification is.
public enum DeliveryState: String, Sendable, Hashable, CaseIterable {
    /// Waiting for a worker.
    case queued
    /// A worker holds it until its lease ends.
    case leased
    /// APNs accepted it.
    case delivered
    /// APNs refused it for good.
    case rejected
    /// Retries ran out.
    case failed
    /// Not sent: its device was inactive at intake.
    case skipped
    /// Not sent: its campaign was cancelled.
    case cancelled

    /// Whether the state is an outcome (nothing more will happen).
    public var isFinal: Bool { self != .queued && self != .leased }
}
