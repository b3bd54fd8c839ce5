/// The result of parsing a command's arguments against its ``ArgumentSpec``.
package struct ParsedArguments: Sendable, Equatable {
    /// Option values by long name (`--output`), in the order given.
    package var options: [String: [String]] = [:]
    /// The flags given, by long name.
    package var flags: Set<String> = []
    /// The positional arguments, in order (`-` stands for standard input).
    package var positionals: [String] = []

    package init() {}

    /// The last value of an option.
    package func value(_ name: String) -> String? { options[name]?.last }
    /// Every value of a repeatable option.
    package func values(_ name: String) -> [String] { options[name] ?? [] }
    /// Whether a flag was given.
    package func has(_ flag: String) -> Bool { flags.contains(flag) }
}
