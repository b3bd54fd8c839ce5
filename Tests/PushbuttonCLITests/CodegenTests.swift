import Foundation
import Pushbutton
import PushbuttonSupport
import Testing

/// The generated Swift compiles (the golden files are part of this test target) and declares exactly
/// what the manifest declares.
@Suite(.timeLimit(.minutes(5))) struct CodegenTests {
    @Test func theGoldenFilesAreWhatCodegenWritesToday() async throws {
        let output = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: output) }
        for (manifest, typeName) in [
            ("manifest.json", "ExampleNotificationCategories"),
            ("legacy-manifest.json", "LegacyNotificationCategories"),
        ] {
            let result = try await CLI.run([
                "codegen", CLI.example(manifest), "-o", output.path, "--type-name", typeName, "--no-strings",
            ])
            #expect(result.status == 0)
            let fresh = try String(contentsOf: output.appendingPathComponent("\(typeName).swift"), encoding: .utf8)
            let golden = try String(
                contentsOf: CLI.packageRoot.appendingPathComponent(
                    "Tests/PushbuttonCLITests/Generated/\(typeName).swift"),
                encoding: .utf8)
            #expect(fresh == golden, "regenerate with 'make codegen-examples'")
        }
    }

    @Test func theCompiledCategoriesEqualTheManifests() throws {
        let manifest = try #require(
            Manifest.parse(Array(try Data(contentsOf: URL(fileURLWithPath: CLI.example("manifest.json"))))).manifest)
        #expect(ExampleNotificationCategories.all == manifest.categories)
        #expect(ExampleNotificationCategories.manifest.categorySet() == manifest.categorySet())
        #expect(ExampleNotificationCategories.ID.friendRequest == "friend_request")
        #expect(ExampleNotificationCategories.ActionID.delete == "delete")
        let legacy = try #require(
            Manifest.parse(Array(try Data(contentsOf: URL(fileURLWithPath: CLI.example("legacy-manifest.json")))))
                .manifest)
        #expect(LegacyNotificationCategories.all == legacy.legacyCategories.map { LegacyConversion.convert($0).0 })
    }

    @Test func awkwardIdentifiersAndTextsStillCompile() async throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let manifest = #"""
            {"version": 1, "categories": [
              {"identifier": "class", "actions": [
                {"identifier": "1st", "title": "Quote \" and \\ and \n new line", "options": ["foreground"]},
                {"identifier": "self", "title": {"key": "k\"ey", "values": {"en": "Emoji 😀 and \u0007 bell"}}}
              ]},
              {"identifier": "all", "actions": [{"identifier": "x.y-z", "title": "T"}]},
              {"identifier": "All", "actions": [{"identifier": "class", "title": "T"}]},
              {"identifier": "42", "actions": [{"identifier": "a", "title": "T"}]}
            ]}
            """#
        let manifestURL = directory.appendingPathComponent("awkward.json")
        try Data(manifest.utf8).write(to: manifestURL)
        let generated = try await CLI.run(["codegen", manifestURL.path, "-o", directory.path, "--no-strings"])
        #expect(generated.status == 0, "\(generated.stderr)")
        let swiftc = try await CLI.run(
            URL(fileURLWithPath: "/usr/bin/env"),
            [
                "swiftc", "-typecheck", "-I", CLI.productsDirectory.appendingPathComponent("Modules").path,
                "-I", CLI.productsDirectory.path, directory.appendingPathComponent("NotificationCategories.swift").path,
            ])
        #expect(swiftc.status == 0, "\(swiftc.stderr)")
    }

    /// A manifest whose texts, keys and translations (and file name) try to end a string, a comment or a
    /// line: the generated module's interface declares exactly what the manifest declares, nothing more.
    @Test(.timeLimit(.minutes(2))) func aHostileManifestGeneratesOnlyTheIntendedDeclarations() async throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let manifest: JSONValue = [
            "version": 1, "defaultLocale": "en", "locales": ["en", "fr"],
            "categories": [
                [
                    "identifier": "msg",
                    "actions": [
                        ["identifier": "a", "title": "\"); }\nfunc evilTitle() {}\nlet q = (\""],
                        [
                            "identifier": "b",
                            "title": [
                                "key": "k\" = \"x\";\n\"evil",
                                "values": [
                                    "en": "*/ func evilComment() {} /* \u{2028} \\(evil) \u{0} \u{1B} \"\"\"",
                                    "fr": "#\"raw\"# \r\n}", "../../escape": "x",
                                ],
                            ],
                        ],
                    ],
                ]
            ],
        ]
        let file = directory.appendingPathComponent("m\nfunc evilName() {}\n*.json")
        try Data(JSONWriter.compact(manifest)).write(to: file)
        let output = directory.appendingPathComponent("out")
        let generated = try await CLI.run(["codegen", file.path, "-o", output.path])
        #expect(generated.status == 0, "\(generated.stderr)")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == [
                file.lastPathComponent, "out",
            ])
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: output.path).sorted() == [
                "NotificationCategories.swift", "PushbuttonNotifications.xcstrings", "en.lproj", "fr.lproj",
            ])
        let modules = CLI.productsDirectory.appendingPathComponent("Modules").path
        let interface = directory.appendingPathComponent("Hostile.swiftinterface")
        let compiled = try await CLI.run(
            URL(fileURLWithPath: "/usr/bin/env"),
            [
                "swiftc", "-emit-module", "-emit-module-path",
                directory.appendingPathComponent("Hostile.swiftmodule").path,
                "-emit-module-interface-path", interface.path, "-enable-library-evolution", "-module-name", "Hostile",
                "-parse-as-library", "-I", modules, "-I", CLI.productsDirectory.path,
                output.appendingPathComponent("NotificationCategories.swift").path,
            ])
        #expect(compiled.status == 0, "\(compiled.stderr)")
        let declarations = try String(contentsOf: interface, encoding: .utf8).split(separator: "\n")
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && !$0.hasPrefix("//") && !$0.hasPrefix("import ") }
        #expect(
            declarations == [
                "public enum NotificationCategories {", "public enum ID {", "public static let msg: Swift.String", "}",
                "public enum ActionID {", "public static let a: Swift.String", "public static let b: Swift.String", "}",
                "public static let msg: Pushbutton.Category", "public static let all: [Pushbutton.Category]",
                "public static let builtinIdentifiers: [Swift.String]",
                "public static let manifest: Pushbutton.Manifest",
                "}",
            ], "\(declarations)")
        // Each .strings file has its comment and exactly one entry: no text added an entry of its own.
        for locale in ["en", "fr"] {
            let strings = try String(
                contentsOf: output.appendingPathComponent("\(locale).lproj/PushbuttonNotifications.strings"),
                encoding: .utf8)
            let lines = strings.split(separator: "\n", omittingEmptySubsequences: false)
            #expect(lines.count == 3 && lines[2].isEmpty, "\(strings)")
            #expect(
                lines[0].hasPrefix("/*") && lines[0].hasSuffix("*/")
                    && lines[0].dropFirst(2).dropLast(2).contains("*/") == false)
            #expect(!strings.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" })
        }
    }

    @Test func controlCharactersInIdentifiersAndBadLocalesAreErrorsAndNothingIsWritten() async throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let manifests = [
            #"{"version": 1, "categories": [{"identifier": "a\nb", "actions": [{"identifier": "x", "title": "T"}]}]}"#,
            #"{"version": 1, "categories": [{"identifier": "a", "actions": [{"identifier": "x\u0000", "title": "T"}]}]}"#,
            #"{"version": 1, "categories": [{"identifier": "a", "actions": [{"identifier": "x\u001b[2J", "title": "T"}]}]}"#,
            #"{"version": 1, "locales": ["en", "../../escape"], "categories": []}"#,
            #"{"version": 1, "defaultLocale": "../x", "categories": []}"#,
            #"{"version": 1, "locales": ["en", ""], "categories": []}"#,
        ]
        for (index, text) in manifests.enumerated() {
            let file = directory.appendingPathComponent("m\(index).json")
            try Data(text.utf8).write(to: file)
            let output = directory.appendingPathComponent("out\(index)")
            let lint = try await CLI.run(["lint", file.path])
            #expect(lint.status == 1, "\(text): \(lint.stdout)")
            #expect(
                lint.stdout.contains("[identifier-control-character]") || lint.stdout.contains("[invalid-locale]"),
                "\(lint.stdout)")
            #expect(!lint.stdout.contains("\u{1B}"))
            let result = try await CLI.run(["codegen", file.path, "-o", output.path])
            #expect(result.status == 1, "\(text)")
            #expect(!FileManager.default.fileExists(atPath: output.path))
        }
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
                == (0..<manifests.count).map { "m\($0).json" }.sorted())
    }

    @Test func tablesGoUnderTheNameAskedFor() async throws {
        let output = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: output) }
        let result = try await CLI.run([
            "codegen", "Examples/manifest.json", "-o", output.path, "--table", "Localizable",
        ])
        #expect(result.status == 0)
        #expect(
            FileManager.default.fileExists(atPath: output.appendingPathComponent("fr.lproj/Localizable.strings").path))
        #expect(!FileManager.default.fileExists(atPath: output.appendingPathComponent("ja.lproj").path))
        for table in ["../x", "a/b", "", "-x", "a b"] {
            #expect(
                try await CLI.run(["codegen", "Examples/manifest.json", "-o", output.path, "--table", table]).status
                    == 2)
        }
    }
}
