import Pushbutton

/// `pushbutton lint MANIFEST`: reads a manifest and prints every diagnostic.
struct LintCommand: Command {
    let name = "lint"
    let summary = "Check a manifest, and payloads against it, and print the diagnostics."
    let discussion = """
        Prints one line per finding, like a compiler (file:line:column: severity: path: message [rule]),
        with a hint on how to fix it. With PAYLOAD files, each is checked against the manifest's categories
        (for --push-type, --priority and --topic when given). One argument may be '-' for standard input.
        Exit status: 0 when there is no error, 1 when there are errors, 2 for a wrong command line.
        """
    static let pushType = Option<String>(
        "--push-type", value: "TYPE", help: "Check payloads as this push type (default alert).")
    static let priority = Option<Int>(
        "--priority", value: "N", help: "Check payloads as sent with this apns-priority.", range: ArgumentRange.priority
    )
    static let topic = Option<String>(
        "--topic", value: "TOPIC", help: "Check payloads as sent to this apns-topic (its push-type suffix).")
    static let json = Flag("--json", help: "Print the diagnostics as a JSON array.")
    static let strict = Flag("--strict", help: "Treat warnings as errors.")
    static let quiet = Flag(
        "--quiet", short: "-q", help: "Print only what fails the run: errors (and warnings with --strict).")
    let arguments = ArgumentSpec(
        options: [Self.pushType, Self.priority, Self.topic], flags: [Self.json, Self.strict, Self.quiet],
        positionals: ["MANIFEST", "[PAYLOAD]"], minimum: 1, maximum: .some(nil))

    func run(_ arguments: ParsedArguments, console: Console) async throws -> Int32 {
        guard arguments.positionals.filter({ $0 == "-" }).count <= 1 else {
            throw UsageError("standard input ('-') can be read only once")
        }
        let path = arguments.positionals[0]
        let bytes = try console.read(path)
        try ManifestLoading.refusePayload(bytes, file: Console.displayName(path))
        let parsed = Manifest.parse(bytes)
        var reports = [(Console.displayName(path), parsed.diagnostics)]
        let payloadPaths = arguments.positionals.dropFirst()
        if !payloadPaths.isEmpty {
            guard let manifest = parsed.manifest, parsed.isUsable else {
                report(reports, arguments, console)
                throw CommandFailure("\(Console.displayName(path)) has errors, so the payloads were not checked")
            }
            let validator = PayloadValidator(manifest: manifest)
            let context = PayloadValidator.Context(
                pushType: PushType(rawValue: try arguments[Self.pushType] ?? "alert"),
                priority: try arguments[Self.priority], topic: try arguments[Self.topic])
            for payloadPath in payloadPaths {
                let result = validator.validate(jsonBytes: try console.read(payloadPath), context: context)
                reports.append((Console.displayName(payloadPath), result.diagnostics))
            }
        }
        return report(reports, arguments, console)
    }

    @discardableResult
    private func report(_ reports: [(String, [Diagnostic])], _ arguments: ParsedArguments, _ console: Console) -> Int32
    {
        var failing = false
        var json: [JSONValue] = []
        for (file, all) in reports {
            // The exit status and the summary count every diagnostic; -q only hides the ones that do not fail
            // the run (with --strict, warnings fail it, so they stay).
            let fails = { (diagnostic: Diagnostic) in
                diagnostic.severity == .error || (arguments[Self.strict] && diagnostic.severity == .warning)
            }
            failing = failing || all.contains(where: fails)
            let shown = arguments[Self.quiet] ? all.filter(fails) : all
            if arguments[Self.json] {
                json += shown.map { DiagnosticPrinter.json($0, file: file) }
            } else {
                for diagnostic in shown { console.print(DiagnosticPrinter.human(diagnostic, file: file)) }
                console.print("\(file): \(DiagnosticPrinter.summary(all))")
            }
        }
        if arguments[Self.json] { console.write(JSONWriter.pretty(.array(json))) }
        return failing ? ExitStatus.failure : ExitStatus.success
    }
}
