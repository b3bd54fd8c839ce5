/// The result of parsing a command's arguments against its ``ArgumentSpec``, read through the command's typed
/// declarations: `arguments[Self.json]` (a ``Flag``), `try arguments[Self.port]` (an ``Option``, converted
/// as it is read), `try arguments[Self.tokens]` (a ``RepeatableOption``). There is no lookup by name, so a
/// misspelt option does not compile, and reading one the spec does not list is caught in debug builds.
package struct ParsedArguments: Sendable, Equatable {
    /// Option texts by long name (`--output`), in the order given. Filled by ``ArgumentParser``.
    var options: [String: [String]] = [:]
    /// The flags given, by long name.
    var flags: Set<String> = []
    /// The positional arguments, in order (`-` stands for standard input).
    package var positionals: [String] = []
    /// The names the spec declares, to catch a declaration read back without being listed.
    var declared: Set<String> = []

    init(declared: Set<String>) { self.declared = declared }

    /// Whether the flag was given.
    package subscript(flag: Flag) -> Bool {
        checkDeclared(flag.name)
        return flags.contains(flag.name)
    }

    /// The option's value (its last, if given more than once), converted; `nil` when it was not given.
    package subscript<Value>(option: Option<Value>) -> Value? {
        get throws(UsageError) {
            guard let text = text(of: option) else { return nil }
            return try option.convert(text, option.name)
        }
    }

    /// Every value of the repeatable option, in order, converted.
    package subscript<Value>(option: RepeatableOption<Value>) -> [Value] {
        get throws(UsageError) {
            checkDeclared(option.name)
            var values: [Value] = []
            for text in options[option.name] ?? [] { values.append(try option.convert(text, option.name)) }
            return values
        }
    }

    /// The option's value, or a ``UsageError`` "`--topic is required`".
    package func required<Value>(_ option: Option<Value>) throws(UsageError) -> Value {
        guard let value = try self[option] else { throw UsageError("\(option.name) is required") }
        return value
    }

    /// Whether the option was given, without converting its value.
    package func isGiven(_ option: any OptionDeclaration) -> Bool { text(of: option) != nil }

    private func text(of option: any OptionDeclaration) -> String? {
        checkDeclared(option.name)
        return options[option.name]?.last
    }

    private func checkDeclared(_ name: String) {
        assert(declared.contains(name), "\(name) is read but not listed in the command's ArgumentSpec")
    }

    package static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.options == rhs.options && lhs.flags == rhs.flags && lhs.positionals == rhs.positionals
    }
}
