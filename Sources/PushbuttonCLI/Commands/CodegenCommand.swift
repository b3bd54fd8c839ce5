import Foundation
import Pushbutton

/// `pushbutton codegen MANIFEST --output DIR`: Swift source and string tables from a manifest.
struct CodegenCommand: Command {
    let name = "codegen"
    let summary = "Generate Swift source and string tables that declare a manifest's categories."
    let discussion = """
        Writes DIR/<TypeName>.swift (the categories as Pushbutton values, with identifier constants),
        DIR/<locale>.lproj/Localizable.strings for each locale, and DIR/Localizable.xcstrings.
        Legacy categories are converted to the modern model (the conversion's warnings go to stderr).
        A manifest with errors is refused: fix what 'pushbutton lint' reports first.
        """
    let arguments = ArgumentSpec(
        options: [
            .init("--output", short: "-o", value: "DIR", help: "The directory to write into (created if missing)."),
            .init("--type-name", value: "NAME", help: "The generated enum's name (default: NotificationCategories)."),
        ],
        flags: [.init("--no-strings", help: "Write only the Swift source.")],
        positionals: ["MANIFEST"])

    func run(_ arguments: ParsedArguments, console: Console) async throws -> Int32 {
        guard let output = arguments.value("--output") else { throw UsageError("--output DIR is required") }
        let typeName = arguments.value("--type-name") ?? "NotificationCategories"
        guard SwiftLiteral.name(for: typeName, prefix: "x") == typeName.prefix(1).lowercased() + typeName.dropFirst(),
            typeName.first?.isUppercase == true, !SwiftLiteral.keywords.contains(typeName)
        else { throw UsageError("--type-name '\(typeName)' is not a valid UpperCamelCase Swift type name") }
        let path = arguments.positionals[0]
        let file = Console.displayName(path)
        let manifest = try ManifestLoading.load(path, console: console)
        let sourceName = path == "-" ? "standard input" : URL(fileURLWithPath: path).lastPathComponent
        let generator = SwiftCodeGenerator(manifest: manifest, typeName: typeName, sourceName: sourceName)
        var files = [("\(typeName).swift", generator.generate())]
        if !arguments.has("--no-strings") {
            let builtins = manifest.builtins.compactMap { BuiltinCategories.category($0) }
            let strings = StringsGenerator(
                categories: generator.categories + builtins, sourceLanguage: manifest.defaultLocale,
                sourceName: sourceName)
            for key in strings.conflicts {
                console.printError(
                    "\(file): warning: localization key '\(key)' has different texts in different places; the first is kept"
                )
            }
            for locale in strings.locales {
                files.append(("\(locale).lproj/Localizable.strings", strings.strings(for: locale)))
            }
            files.append(("Localizable.xcstrings", strings.stringCatalog()))
        }
        for (name, contents) in files {
            let url = URL(fileURLWithPath: output).appendingPathComponent(name)
            do {
                try FileManager.default.createDirectory(
                    at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data(contents.utf8).write(to: url, options: .atomic)
            } catch {
                throw CommandFailure("cannot write '\(url.path)': \(error.localizedDescription)")
            }
            console.print("wrote \(url.path)")
        }
        return ExitStatus.success
    }
}
