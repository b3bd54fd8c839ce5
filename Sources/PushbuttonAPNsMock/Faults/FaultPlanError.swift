/// A fault specification that could not be read: a ``code`` to branch on, and a message that says what to fix.
public struct FaultPlanError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong with the specification. Extensible: compare with the static members, keep a default case.
    public struct Code: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        /// The code's name, stable across releases.
        public var rawValue: String
        /// The code named `rawValue`.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The code's name.
        public var description: String { rawValue }

        /// An item is not `name=value`.
        public static let malformedItem = Code(rawValue: "malformed-item")
        /// A value is not a number, or outside its range.
        public static let invalidValue = Code(rawValue: "invalid-value")
        /// The name is not a fault the mock knows.
        public static let unknownFault = Code(rawValue: "unknown-fault")
    }

    /// What is wrong, to branch on.
    public var code: Code
    /// What is wrong and how to fix it, for people.
    public var description: String

    init(_ code: Code, _ description: String) {
        self.code = code
        self.description = description
    }
}
