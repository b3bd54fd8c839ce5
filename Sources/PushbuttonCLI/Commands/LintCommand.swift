import Pushbutton

/// `pushbutton lint MANIFEST`: reads a manifest and prints every diagnostic.
struct LintCommand: Command {
    let name = "lint"
    let summary = "Check a manifest and print its diagnostics."
    let discussion = """
        Prints one line per finding, like a compiler (file:line:column: severity: path: message [rule]),
        with a hint on how to fix it. MANIFEST may be '-' for standard input.
        Exit status: 0 when there is no error, 1 when there are errors, 2 for a wrong command line.
        """
    let arguments = ArgumentSpec(
        flags: [
            .init("--json", help: "Print the diagnostics as a JSON array."),
            .init("--strict", help: "Treat warnings as errors."),
            .init("--quiet", short: "-q", help: "Print errors only."),
        ], positionals: ["MANIFEST"])

    func run(_ arguments: ParsedArguments, console: Console) async throws -> Int32 {
        let path = arguments.positionals[0]
        let file = Console.displayName(path)
        var diagnostics = Manifest.parse(try console.read(path)).diagnostics
        if arguments.has("--quiet") { diagnostics = diagnostics.filter { $0.severity == .error } }
        if arguments.has("--json") {
            console.write(JSONWriter.pretty(.array(diagnostics.map { DiagnosticPrinter.json($0, file: file) })))
        } else {
            for diagnostic in diagnostics { console.print(DiagnosticPrinter.human(diagnostic, file: file)) }
            console.print("\(file): \(DiagnosticPrinter.summary(diagnostics))")
        }
        let failing = diagnostics.contains {
            $0.severity == .error || (arguments.has("--strict") && $0.severity == .warning)
        }
        return failing ? ExitStatus.failure : ExitStatus.success
    }
}
