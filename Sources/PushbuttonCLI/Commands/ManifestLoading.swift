import Pushbutton

/// Loads a manifest for commands that need a usable one (payload, lint of payloads, codegen).
enum ManifestLoading {
    /// The manifest at `path`; its errors and warnings go to stderr, and errors stop the command.
    static func load(_ path: String, console: Console) throws(CommandFailure) -> Manifest {
        let file = Console.displayName(path)
        let result = Manifest.parse(try console.read(path))
        for diagnostic in result.diagnostics where diagnostic.severity >= .warning {
            console.printError(DiagnosticPrinter.human(diagnostic, file: file))
        }
        guard let manifest = result.manifest, result.isUsable else {
            throw CommandFailure("\(file) has errors; fix them (pushbutton lint \(path)) first")
        }
        return manifest
    }
}
