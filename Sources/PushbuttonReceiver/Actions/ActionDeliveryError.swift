/// `ActionContext.deliver(to:method:body:key:)` had no backend to deliver to.
public struct ActionDeliveryError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What was missing.
    public var description: String

    /// An error saying `description`.
    public init(_ description: String) { self.description = description }
}
