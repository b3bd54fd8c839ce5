/// What the parser and the help text need of an option that takes a value, whatever its type:
/// ``Option`` and ``RepeatableOption`` conform.
package protocol OptionDeclaration: Sendable {
    /// The long name: `--output`.
    var name: String { get }
    /// A short alias: `-o`.
    var short: String? { get }
    /// The value's placeholder in the help text: `DIR`.
    var valueName: String { get }
    var help: String { get }
    /// Whether the option may be given more than once (its values are collected in order).
    var repeatable: Bool { get }
}
