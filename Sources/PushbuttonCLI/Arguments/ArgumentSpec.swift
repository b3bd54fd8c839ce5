/// What a command accepts: options that take a value, flags, and how many positional arguments.
public struct ArgumentSpec: Sendable {
    /// An option that takes a value: `--output DIR` or `--output=DIR`.
    public struct Option: Sendable {
        public var name: String
        public var short: String?
        public var valueName: String
        public var help: String
        /// Whether the option may be given more than once (its values are collected in order).
        public var repeatable: Bool

        public init(_ name: String, short: String? = nil, value: String, help: String, repeatable: Bool = false) {
            self.name = name
            self.short = short
            self.valueName = value
            self.help = help
            self.repeatable = repeatable
        }
    }

    /// A switch without a value: `--json`.
    public struct Flag: Sendable {
        public var name: String
        public var short: String?
        public var help: String

        public init(_ name: String, short: String? = nil, help: String) {
            self.name = name
            self.short = short
            self.help = help
        }
    }

    public var options: [Option]
    public var flags: [Flag]
    /// Names of the positional arguments, for usage text (`MANIFEST`).
    public var positionalNames: [String]
    public var minimumPositionals: Int
    /// `nil` for no limit.
    public var maximumPositionals: Int?

    public init(
        options: [Option] = [], flags: [Flag] = [], positionals: [String] = [], minimum: Int? = nil,
        maximum: Int?? = nil
    ) {
        self.options = options
        self.flags = flags
        self.positionalNames = positionals
        self.minimumPositionals = minimum ?? positionals.count
        self.maximumPositionals = maximum ?? positionals.count
    }
}
