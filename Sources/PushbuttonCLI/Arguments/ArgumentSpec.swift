/// What a command accepts: options that take a value, flags, and how many positional arguments.
package struct ArgumentSpec: Sendable {
    /// An option that takes a value: `--output DIR` or `--output=DIR`.
    package struct Option: Sendable {
        package var name: String
        package var short: String?
        package var valueName: String
        package var help: String
        /// Whether the option may be given more than once (its values are collected in order).
        package var repeatable: Bool

        package init(_ name: String, short: String? = nil, value: String, help: String, repeatable: Bool = false) {
            self.name = name
            self.short = short
            self.valueName = value
            self.help = help
            self.repeatable = repeatable
        }
    }

    /// A switch without a value: `--json`.
    package struct Flag: Sendable {
        package var name: String
        package var short: String?
        package var help: String

        package init(_ name: String, short: String? = nil, help: String) {
            self.name = name
            self.short = short
            self.help = help
        }
    }

    package var options: [Option]
    package var flags: [Flag]
    /// Names of the positional arguments, for usage text (`MANIFEST`).
    package var positionalNames: [String]
    package var minimumPositionals: Int
    /// `nil` for no limit.
    package var maximumPositionals: Int?

    package init(
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
