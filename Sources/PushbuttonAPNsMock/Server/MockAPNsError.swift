/// Setting up TLS or the listening socket failed.
public struct MockAPNsError: Error, Sendable, CustomStringConvertible {
    public var description: String
    init(_ description: String) { self.description = description }
}
