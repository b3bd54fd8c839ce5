/// Something about a notification's request that APNs would refuse, found before it is sent: the reason APNs
/// answers with, and what to change.
public struct APNsRequestProblem: Sendable, Hashable, CustomStringConvertible {
    /// The reason APNs answers such a request with (its status is in ``APNsReason/documented``).
    public var reason: APNsReason
    /// What is wrong and how to fix it.
    public var message: String

    /// A problem APNs answers with `reason`, described by `message`.
    public init(_ reason: APNsReason, _ message: String) {
        self.reason = reason
        self.message = message
    }

    /// `"<message> (APNs: <reason>)"`.
    public var description: String { "\(message) (APNs answers \(reason))" }
}
