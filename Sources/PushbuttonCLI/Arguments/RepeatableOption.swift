/// An option that may be given more than once (`--token A --token B`), read back as every value in order
/// with `try arguments[Self.tokens]`. Like ``Option``, it carries the conversion of each value.
package struct RepeatableOption<Value>: OptionDeclaration {
    package let name: String
    package let short: String?
    package let valueName: String
    package let help: String
    package var repeatable: Bool { true }
    let convert: @Sendable (_ text: String, _ option: String) throws(UsageError) -> Value

    package init(
        _ name: String, short: String? = nil, value: String, help: String,
        convert: @escaping @Sendable (_ text: String, _ option: String) throws(UsageError) -> Value
    ) {
        self.name = name
        self.short = short
        self.valueName = value
        self.help = help
        self.convert = convert
    }
}

extension RepeatableOption where Value == String {
    /// A text option, each value taken as given.
    package init(_ name: String, short: String? = nil, value: String, help: String) {
        self.init(name, short: short, value: value, help: help) { text, _ in text }
    }
}
