import Foundation

/// A segment kept by name for an app (`PUT /v1/apps/{app}/segments/{name}`): its expression as the JSON text
/// it was given (checked before it is kept; read back and checked again where it is used).
public struct SavedSegment: Sendable, Hashable {
    /// Its name, unique within the app.
    public var name: String
    /// The expression, compact JSON.
    public var expression: String
    /// When it was last saved.
    public var updatedAt: Date

    /// A saved segment.
    public init(name: String, expression: String, updatedAt: Date) {
        self.name = name
        self.expression = expression
        self.updatedAt = updatedAt
    }
}
