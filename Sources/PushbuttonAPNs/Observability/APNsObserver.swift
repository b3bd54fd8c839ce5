/// Receives the sender's ``APNsEvent``s: set one on ``APNsClient`` (and ``APNsChannels``) to count, time or
/// log what it does.
///
/// `observe` is called on whichever thread the event happened on (the transport's, for most), so it must
/// be quick and must not block: count, or hand the event on. With no observer set, the sender does nothing
/// extra per notification (no clock reading, no allocation).
public protocol APNsObserver: Sendable {
    func observe(_ event: APNsEvent)
}

/// An observer made of a closure, for adapters of a few lines.
///
/// ```swift
/// let client = try APNsClient(
///     environment: .production, keyFile: keyFile, keyID: keyID, teamID: teamID,
///     observer: APNsEventHandler { event in if event.level >= .warning { print(event) } })
/// ```
public struct APNsEventHandler: APNsObserver {
    private let handle: @Sendable (APNsEvent) -> Void

    /// An observer that calls `handle` with every event.
    public init(_ handle: @escaping @Sendable (APNsEvent) -> Void) { self.handle = handle }

    /// Hands `event` on.
    public func observe(_ event: APNsEvent) { handle(event) }
}

/// Several observers as one, each called in turn.
public struct APNsObserverGroup: APNsObserver {
    /// The observers, in the order they are called.
    public let observers: [any APNsObserver]

    /// One observer made of `observers`.
    public init(_ observers: [any APNsObserver]) { self.observers = observers }

    /// Hands `event` to each observer.
    public func observe(_ event: APNsEvent) {
        for observer in observers { observer.observe(event) }
    }
}
