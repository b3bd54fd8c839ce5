import Foundation
import Pushbutton

/// `pushbutton codegen MANIFEST --output DIR`: Swift source and string tables from a manifest.
struct CodegenCommand: Command {
    let name = "codegen"
    let summary = "Generate Swift source and string tables that declare a manifest's categories."
    let discussion = """
        Writes DIR/<TypeName>.swift (the categories as Pushbutton values, with identifier constants),
        DIR/<locale>.lproj/<TABLE>.strings for each locale the manifest declares, and DIR/<TABLE>.xcstrings.
        TABLE is PushbuttonNotifications unless --table names another (Localizable is the app's own table).
        Translations in other languages (the built-ins' es, ja, zh-Hans) are left out: an .lproj folder
        makes iOS list the app as supporting its language. The app reads the table at run time
        (SystemNotificationCenter's StringTable, in the app's language): a translation edited there is what
        the buttons show, and a key it lacks keeps the manifest's text. Nothing is written outside DIR.
        Legacy categories are converted to the modern model (the conversion's warnings go to stderr).
        A manifest with errors is refused: fix what 'pushbutton lint' reports first.
        """
    static let output = Option<String>(
        "--output", short: "-o", value: "DIR", help: "The directory to write into (created if missing).")
    static let typeName = Option<String>(
        "--type-name", value: "NAME", help: "The generated enum's name (default: NotificationCategories).")
    static let table = Option<String>(
        "--table", value: "NAME", help: "The string table's name (default: PushbuttonNotifications).")
    static let noStrings = Flag("--no-strings", help: "Write only the Swift source.")
    let arguments = ArgumentSpec(
        options: [Self.output, Self.typeName, Self.table], flags: [Self.noStrings], positionals: ["MANIFEST"])

    func run(_ arguments: ParsedArguments, console: Console) async throws -> Int32 {
        guard let output = try arguments[Self.output] else { throw UsageError("--output DIR is required") }
        let typeName = try arguments[Self.typeName] ?? "NotificationCategories"
        guard SwiftLiteral.name(for: typeName, prefix: "x") == typeName.prefix(1).lowercased() + typeName.dropFirst(),
            typeName.first?.isUppercase == true, !SwiftLiteral.keywords.contains(typeName)
        else { throw UsageError("--type-name '\(typeName)' is not a valid UpperCamelCase Swift type name") }
        let table = try arguments[Self.table] ?? StringsGenerator.defaultTableName
        guard !table.isEmpty, table.utf8.count <= 64,
            table.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == "-") }),
            table.first != "-"
        else {
            throw UsageError(
                "--table '\(TerminalText.escaped(table))' is not a table name (letters, digits, '_' and '-')")
        }
        let path = arguments.positionals[0]
        let file = Console.displayName(path)
        let manifest = try ManifestLoading.load(path, console: console)
        let sourceName = path == "-" ? "standard input" : URL(fileURLWithPath: path).lastPathComponent
        let generator = SwiftCodeGenerator(manifest: manifest, typeName: typeName, sourceName: sourceName)
        var files = [("\(typeName).swift", generator.generate())]
        if !arguments[Self.noStrings] {
            let builtins = manifest.builtins.compactMap { BuiltinCategories.category($0) }
            let declared = manifest.locales.isEmpty ? [manifest.defaultLocale] : manifest.locales
            // The linter refused invalid tags already; checked again here because they become directories.
            if let invalid = (declared + [manifest.defaultLocale]).first(where: { !LanguageTag.isValid($0) }) {
                throw CommandFailure(
                    "\(file): the locale '\(TerminalText.escaped(invalid))' is not a BCP 47 language tag; nothing was written"
                )
            }
            let strings = StringsGenerator(
                categories: generator.categories + builtins, sourceLanguage: manifest.defaultLocale,
                declaredLocales: declared, sourceName: sourceName)
            for key in strings.conflicts {
                console.printError(
                    "\(file): warning: localization key '\(TerminalText.escaped(key))' has different texts in different places; the first is kept"
                )
            }
            for locale in strings.locales {
                files.append(("\(locale).lproj/\(table).strings", strings.strings(for: locale)))
            }
            files.append(("\(table).xcstrings", strings.stringCatalog()))
        }
        let root = URL(fileURLWithPath: output).standardizedFileURL
        for (name, contents) in files {
            let url = root.appendingPathComponent(name).standardizedFileURL
            // Every name above is built from checked parts; this is the last guard that nothing escapes DIR.
            guard url.path.hasPrefix(root.path.hasSuffix("/") ? root.path : root.path + "/") else {
                throw CommandFailure(
                    "refusing to write '\(TerminalText.escaped(url.path))', which is outside '\(output)'")
            }
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
