/// A failed store operation: what was attempted and the database's own message.
public struct StoreError: Error, Sendable, Hashable, CustomStringConvertible {
    public var message: String
    public var context: String

    public init(_ message: String, context: String) {
        self.message = message
        self.context = context
    }

    public var description: String { "\(context): \(message)" }
}
