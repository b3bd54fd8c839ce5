/// What a command accepts: options that take a value, flags, and how many positional arguments. Each option
/// and flag is a typed declaration the command owns (``Option``, ``RepeatableOption``, ``Flag``), listed here
/// once, in the order `--help` shows them, and read back from ``ParsedArguments`` through that declaration.
package struct ArgumentSpec: Sendable {
    package var options: [any OptionDeclaration]
    package var flags: [Flag]
    /// Names of the positional arguments, for usage text (`MANIFEST`).
    package var positionalNames: [String]
    package var minimumPositionals: Int
    /// `nil` for no limit.
    package var maximumPositionals: Int?

    package init(
        options: [any OptionDeclaration] = [], flags: [Flag] = [], positionals: [String] = [], minimum: Int? = nil,
        maximum: Int?? = nil
    ) {
        self.options = options
        self.flags = flags
        self.positionalNames = positionals
        self.minimumPositionals = minimum ?? positionals.count
        self.maximumPositionals = maximum ?? positionals.count
    }

    /// The long names of every option and flag.
    var declaredNames: Set<String> { Set(options.map(\.name) + flags.map(\.name)) }
}
