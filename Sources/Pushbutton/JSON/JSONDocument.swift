/// A parsed JSON text with, when asked for, where each value and member name stood in it.
public struct JSONDocument: Sendable {
    /// The parsed value.
    public var value: JSONValue
    /// Where each value starts, by path (empty unless locations were recorded).
    public var valueLocations: [JSONPath: SourceLocation]
    /// Where each object member's name starts, by the member's path (empty unless recorded).
    public var keyLocations: [JSONPath: SourceLocation]
    /// Object members that appeared more than once; the last occurrence wins, as in most parsers.
    public var duplicateKeys: [(path: JSONPath, location: SourceLocation)]

    /// The best known location of `path`: its member name, else its value, else its nearest ancestor.
    public func location(of path: JSONPath) -> SourceLocation? {
        var current = path
        while true {
            if let location = keyLocations[current] ?? valueLocations[current] { return location }
            if current.components.isEmpty { return nil }
            current = current.parent
        }
    }

    /// `diagnostics` with a source location wherever they lack one, in display order.
    public func locating(_ diagnostics: [Diagnostic]) -> [Diagnostic] {
        diagnostics.map { diagnostic in
            var located = diagnostic
            located.location = located.location ?? location(of: diagnostic.path)
            return located
        }.sortedForDisplay()
    }
}
