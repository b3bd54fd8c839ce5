/// An option that takes one value (`--output DIR` or `--output=DIR`), with the conversion of its text to
/// `Value` and that conversion's one-line error in the declaration. A command declares each option once
/// (`static let connections = Option<Int>("--connections", value: "N", help: …, range: 1...64)`), lists it in
/// its ``ArgumentSpec`` and reads it back with `try arguments[Self.connections]`. The text is converted
/// when it is read, so a command reports its errors in the order it reads its options.
package struct Option<Value>: OptionDeclaration {
    package let name: String
    package let short: String?
    package let valueName: String
    package let help: String
    package var repeatable: Bool { false }
    /// Turns the text given into a value, or explains (naming the option) why it cannot.
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

extension Option where Value == String {
    /// A text option, taken as given.
    package init(_ name: String, short: String? = nil, value: String, help: String) {
        self.init(name, short: short, value: value, help: help) { text, _ in text }
    }

    /// A text option that becomes the HTTP header `header` (`--topic`, `--collapse-id`): a CR, LF or other
    /// control character is refused before anything is sent.
    package init(_ name: String, value: String, help: String, header: String) {
        self.init(name, value: value, help: help) { text, option throws(UsageError) in
            try OptionValue.header(text, option: option, header: header)
        }
    }
}

extension Option where Value == Int {
    /// A whole number within `range`.
    package init(_ name: String, short: String? = nil, value: String, help: String, range: ClosedRange<Int>) {
        self.init(name, short: short, value: value, help: help) { text, option throws(UsageError) in
            try OptionValue.integer(text, option: option, in: range)
        }
    }
}

extension Option where Value == Double {
    /// A finite decimal number within `range`.
    package init(_ name: String, value: String, help: String, range: ClosedRange<Double>) {
        self.init(name, value: value, help: help) { text, option throws(UsageError) in
            try OptionValue.number(text, option: option, in: range)
        }
    }
}

extension Option where Value == Duration {
    /// A duration given in seconds (decimals allowed), within `range`.
    package init(_ name: String, value: String = "SECONDS", help: String, seconds range: ClosedRange<Double>) {
        self.init(name, value: value, help: help) { text, option throws(UsageError) in
            try OptionValue.seconds(text, option: option, in: range)
        }
    }
}
