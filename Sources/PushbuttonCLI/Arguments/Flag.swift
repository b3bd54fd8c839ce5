/// A switch without a value (`--json`), declared once by the command that owns it and read back with
/// `arguments[Self.json]`.
package struct Flag: Sendable, Hashable {
    package var name: String
    package var short: String?
    package var help: String

    package init(_ name: String, short: String? = nil, help: String) {
        self.name = name
        self.short = short
        self.help = help
    }
}
