import Pushbutton

/// What a registration did.
public struct RegistrationReport: Sendable, Hashable {
    /// The identifiers Pushbutton registered (its own categories).
    public var registered: [String]
    /// The identifiers that were already registered by someone else and were kept.
    public var kept: [String]
    /// Dynamic categories evicted to stay within the limit.
    public var evicted: [String]
    /// Collisions between definitions of the same identifier, naming both sources.
    public var diagnostics: [Diagnostic]
    /// How many categories are registered now.
    public var total: Int
}
