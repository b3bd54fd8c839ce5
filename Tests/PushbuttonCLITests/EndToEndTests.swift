import Foundation
import Pushbutton
import Testing

/// Runs the real binary and checks standard output, standard error and the exit status.
@Suite(.timeLimit(.minutes(5))) struct EndToEndTests {
    @Test func helpAndVersion() async throws {
        let help = try await CLI.run(["--help"])
        #expect(help.status == 0)
        for command in ["lint", "builtins", "codegen"] { #expect(help.stdout.contains("  \(command)")) }
        let version = try await CLI.run(["--version"])
        #expect(version.status == 0 && version.stdout.hasPrefix("pushbutton "))
        let lintHelp = try await CLI.run(["lint", "--help"])
        #expect(lintHelp.status == 0 && lintHelp.stdout.contains("USAGE: pushbutton lint"))
        #expect(try await CLI.run(["help", "codegen"]).stdout.contains("--output"))
    }

    @Test func noArgumentsOrAnUnknownCommandIsAUsageErrorOnOneLine() async throws {
        let none = try await CLI.run([])
        #expect(none.status == 2 && none.stdout.isEmpty && none.stderr.contains("USAGE"))
        let unknown = try await CLI.run(["lnit"])
        #expect(unknown.status == 2)
        #expect(unknown.stdout.isEmpty)
        #expect(
            unknown.stderr
                == "pushbutton: error: unknown command 'lnit'; did you mean 'lint'?; run 'pushbutton --help'\n")
    }

    @Test func lintingACleanManifestExitsZero() async throws {
        let result = try await CLI.run(["lint", CLI.example("manifest.json")])
        #expect(result.status == 0)
        #expect(result.stdout.hasSuffix("manifest.json: 0 errors, 0 warnings, 1 note\n"))
        #expect(result.stderr.isEmpty)
    }

    @Test func lintingABrokenManifestPrintsCompilerStyleDiagnosticsAndExitsOne() async throws {
        let result = try await CLI.run(["lint", "Examples/broken-manifest.json"])
        #expect(result.status == 1)
        #expect(
            result.stdout.contains(
                "Examples/broken-manifest.json:4:16: error: builtins[0]: 'yes_no' is not a built-in category [unknown-builtin]\n"
                    + "    hint: built-ins are named with their prefix: write 'pushbutton.yes_no'"))
        #expect(result.stdout.contains("Examples/broken-manifest.json: 9 errors"))
        #expect(result.stderr.isEmpty)
    }

    @Test func lintJSONOutputParses() async throws {
        let result = try await CLI.run(["lint", "--json", "Examples/broken-manifest.json"])
        #expect(result.status == 1)
        let diagnostics = try #require(try JSONParser.parse(result.stdout).arrayValue)
        #expect(diagnostics.count > 10)
        let first = try #require(diagnostics.first)
        #expect(first["line"] == 4 && first["column"] == 16 && first["code"] == "unknown-builtin")
        #expect(first["file"] == "Examples/broken-manifest.json" && first["severity"] == "error")
    }

    @Test func strictAndQuietChangeWhatCounts() async throws {
        let legacy = CLI.example("legacy-manifest.json")
        #expect(try await CLI.run(["lint", legacy]).status == 0)
        #expect(try await CLI.run(["lint", "--strict", legacy]).status == 1)
        let quiet = try await CLI.run(["lint", "-q", legacy])
        #expect(quiet.status == 0 && !quiet.stdout.contains("warning:"))
    }

    @Test func lintReadsStandardInput() async throws {
        let result = try await CLI.run(["lint", "-"], stdin: #"{"version": 1, "categories": [}"#)
        #expect(result.status == 1)
        #expect(result.stdout.hasPrefix("<stdin>:1:31: error: (root): malformed JSON:"))
    }

    @Test func aMissingFileIsOneLineOnStandardError() async throws {
        let result = try await CLI.run(["lint", "no/such/manifest.json"])
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.hasPrefix("pushbutton: error: cannot read 'no/such/manifest.json'"))
        #expect(result.stderr.filter { $0 == "\n" }.count == 1)
    }

    @Test func wrongOptionsAreUsageErrors() async throws {
        let result = try await CLI.run(["lint", "--jsn", "x.json"])
        #expect(result.status == 2)
        #expect(
            result.stderr
                == "pushbutton: error: unknown option '--jsn'; did you mean '--json'? (see 'pushbutton lint --help')\n")
        #expect(try await CLI.run(["lint"]).status == 2)
        #expect(try await CLI.run(["lint", "-", "-"]).status == 2)
    }

    @Test func builtinsListsEveryCategoryLocalized() async throws {
        let result = try await CLI.run(["builtins", "--locale", "de"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("pushbutton.yes_no"))
        #expect(result.stdout.contains("Ja (foreground) · Nein (background, unlock)"))
        #expect(result.stdout.contains("\(BuiltinCategories.identifiers.count) built-in categories."))
        let open = try await CLI.run(["builtins", "--no-background-authentication"])
        #expect(open.stdout.contains("Yes (foreground) · No (background)\n"))
    }

    @Test func builtinsJSONIsManifestCategories() async throws {
        let result = try await CLI.run(["builtins", "--json"])
        #expect(result.status == 0)
        let categories = try JSONDecoder().decode([Pushbutton.Category].self, from: Data(result.stdout.utf8))
        #expect(categories == BuiltinCategories.all())
    }

    @Test func codegenWritesSourceAndStringTables() async throws {
        let output = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: output) }
        let result = try await CLI.run([
            "codegen", "Examples/manifest.json", "--output", output.path, "--type-name", "Chatter",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let files = [
            "Chatter.swift", "en.lproj/PushbuttonNotifications.strings", "fr.lproj/PushbuttonNotifications.strings",
            "de.lproj/PushbuttonNotifications.strings", "PushbuttonNotifications.xcstrings",
        ]
        // Only the declared locales (en, fr, de), not the built-ins' es, ja and zh-Hans, in Pushbutton's own table.
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: output.path).sorted() == [
                "Chatter.swift", "PushbuttonNotifications.xcstrings", "de.lproj", "en.lproj", "fr.lproj",
            ])
        for file in files { #expect(FileManager.default.fileExists(atPath: output.appendingPathComponent(file).path)) }
        let french = try String(
            contentsOf: output.appendingPathComponent("fr.lproj/PushbuttonNotifications.strings"), encoding: .utf8)
        #expect(french.contains(#""action.reply" = "Répondre";"#))
        #expect(french.contains(#""pushbutton.yes" = "Oui";"#))
        let catalog = try JSONParser.parse(
            Array(try Data(contentsOf: output.appendingPathComponent("PushbuttonNotifications.xcstrings"))))
        #expect(catalog["strings"]?["action.like"]?["localizations"]?["de"]?["stringUnit"]?["value"] == "Gefällt mir")
        #expect(catalog["sourceLanguage"] == "en")
    }

    @Test func codegenRefusesAManifestWithErrorsAndNeedsAnOutput() async throws {
        let output = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: output) }
        let broken = try await CLI.run(["codegen", "Examples/broken-manifest.json", "-o", output.path])
        #expect(broken.status == 1)
        #expect(
            broken.stderr.hasSuffix(
                "pushbutton: error: Examples/broken-manifest.json has errors; fix them (pushbutton lint Examples/broken-manifest.json) first\n"
            ))
        #expect(try FileManager.default.contentsOfDirectory(atPath: output.path).isEmpty)
        #expect(try await CLI.run(["codegen", "Examples/manifest.json"]).status == 2)
        #expect(
            try await CLI.run(["codegen", "Examples/manifest.json", "-o", output.path, "--type-name", "class"]).status
                == 2)
    }
}
