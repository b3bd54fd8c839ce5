import Pushbutton

/// The one place command-line arguments are parsed.
///
/// Accepts `--name value`, `--name=value`, short aliases (`-o value`), flags, `--` to end options,
/// and `-` as a positional (standard input). `-h`/`--help` anywhere before `--` asks for help, whatever else is on the line. Anything else is a
/// ``UsageError`` that names the problem and, for a misspelt option, the closest known one.
package enum ArgumentParser {
    /// Parses `arguments` (without the command name). Returns `nil` when help was asked for.
    package static func parse(_ arguments: [String], spec: ArgumentSpec) throws(UsageError) -> ParsedArguments? {
        let beforeTerminator = arguments.prefix { $0 != "--" }
        if beforeTerminator.contains("-h") || beforeTerminator.contains("--help") { return nil }
        var parsed = ParsedArguments(declared: spec.declaredNames)
        var index = 0
        var optionsEnded = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if optionsEnded || argument == "-" || !argument.hasPrefix("-") {
                parsed.positionals.append(argument)
                continue
            }
            if argument == "--" {
                optionsEnded = true
                continue
            }
            var name = argument
            var inlineValue: String?
            if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                inlineValue = String(argument[argument.index(after: equals)...])
            }
            if let flag = spec.flags.first(where: { $0.name == name || $0.short == name }) {
                guard inlineValue == nil else { throw UsageError("\(flag.name) does not take a value") }
                parsed.flags.insert(flag.name)
                continue
            }
            guard let option = spec.options.first(where: { $0.name == name || $0.short == name }) else {
                let known = spec.options.map(\.name) + spec.flags.map(\.name) + ["--help"]
                let suggestion = Suggestion.didYouMean(name, among: known).map { "; \($0)" } ?? ""
                throw UsageError("unknown option '\(name)'\(suggestion)")
            }
            let value: String
            if let inlineValue {
                value = inlineValue
            } else {
                guard index < arguments.count else {
                    throw UsageError("\(option.name) needs a value (\(option.valueName))")
                }
                value = arguments[index]
                index += 1
            }
            if !option.repeatable && parsed.options[option.name] != nil {
                throw UsageError("\(option.name) is given more than once")
            }
            parsed.options[option.name, default: []].append(value)
        }
        try checkPositionals(parsed.positionals, spec: spec)
        return parsed
    }

    private static func checkPositionals(_ positionals: [String], spec: ArgumentSpec) throws(UsageError) {
        let names = spec.positionalNames.joined(separator: " ")
        if positionals.count < spec.minimumPositionals {
            throw UsageError("missing argument: expected \(names)")
        }
        if let maximum = spec.maximumPositionals, positionals.count > maximum {
            let extra = positionals[maximum...].joined(separator: " ")
            throw UsageError("unexpected argument '\(extra)'" + (maximum == 0 ? "" : "; expected \(names)"))
        }
    }
}
