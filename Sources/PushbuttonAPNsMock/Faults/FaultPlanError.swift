/// A fault specification that could not be read.
public struct FaultPlanError: Error, Sendable, CustomStringConvertible {
    public var description: String
    init(_ description: String) { self.description = description }
}
