/// A position in a source text: 1-based line and column (in UTF-8 bytes) and the 0-based byte offset.
public struct SourceLocation: Sendable, Hashable, CustomStringConvertible {
    /// The line, from 1.
    public var line: Int
    /// The column in UTF-8 bytes, from 1 (a multi-byte character counts for its bytes).
    public var column: Int
    /// The byte offset from the start of the text, from 0.
    public var offset: Int

    /// Creates a location; the three numbers must describe the same position.
    public init(line: Int, column: Int, offset: Int) {
        self.line = line
        self.column = column
        self.offset = offset
    }

    /// `line:column`, as compilers print positions.
    public var description: String { "\(line):\(column)" }
}
