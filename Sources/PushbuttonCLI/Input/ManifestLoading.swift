import Pushbutton

/// Loads a manifest for commands that need a usable one (payload, lint of payloads, codegen).
enum ManifestLoading {
    /// The manifest at `path`; its errors and warnings go to stderr, and errors stop the command.
    static func load(_ path: String, console: Console) throws(CommandFailure) -> Manifest {
        let file = Console.displayName(path)
        let bytes = try console.read(path)
        try refusePayload(bytes, file: file)
        let result = Manifest.parse(bytes)
        for diagnostic in result.diagnostics where diagnostic.severity >= .warning {
            console.printError(DiagnosticPrinter.human(diagnostic, file: file))
        }
        guard let manifest = result.manifest, result.isUsable else {
            throw CommandFailure("\(file) has errors; fix them (pushbutton lint \(path)) first")
        }
        return manifest
    }

    /// A payload given where the manifest belongs would get a screenful of manifest errors; say what it is.
    static func refusePayload(_ bytes: [UInt8], file: String) throws(CommandFailure) {
        guard let object = (try? JSONParser.parse(bytes))?.objectValue, object["aps"] != nil,
            object["categories"] == nil, object["version"] == nil
        else { return }
        throw CommandFailure(
            "\(file) looks like a payload (it has an 'aps' dictionary), not a manifest: the manifest comes first, "
                + "as in pushbutton lint MANIFEST [PAYLOAD...]")
    }
}
