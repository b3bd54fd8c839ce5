/// The result of parsing a command's arguments against its ``ArgumentSpec``.
public struct ParsedArguments: Sendable, Equatable {
    /// Option values by long name (`--output`), in the order given.
    public var options: [String: [String]] = [:]
    /// The flags given, by long name.
    public var flags: Set<String> = []
    /// The positional arguments, in order (`-` stands for standard input).
    public var positionals: [String] = []

    public init() {}

    /// The last value of an option.
    public func value(_ name: String) -> String? { options[name]?.last }
    /// Every value of a repeatable option.
    public func values(_ name: String) -> [String] { options[name] ?? [] }
    /// Whether a flag was given.
    public func has(_ flag: String) -> Bool { flags.contains(flag) }
}
