/// Why the simulated user could not do what a test or command asked.
public struct SimulatorError: Error, Sendable, Hashable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
