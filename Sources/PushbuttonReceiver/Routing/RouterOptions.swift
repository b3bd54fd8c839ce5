/// How long the router lets handlers run before it calls the completion handler anyway.
public struct RouterOptions: Sendable, Hashable {
    /// For background buttons and dismissals. iOS gives about 30 seconds; the default leaves a margin.
    public var backgroundDeadline: Duration
    /// For foreground buttons and body taps.
    public var foregroundDeadline: Duration

    public init(backgroundDeadline: Duration = .seconds(20), foregroundDeadline: Duration = .seconds(60)) {
        self.backgroundDeadline = backgroundDeadline
        self.foregroundDeadline = foregroundDeadline
    }

    /// The deadline for a response in `situation`.
    public func deadline(for situation: Situation) -> Duration {
        situation.isForeground ? foregroundDeadline : backgroundDeadline
    }
}
