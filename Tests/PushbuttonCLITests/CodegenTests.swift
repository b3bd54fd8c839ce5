import Foundation
import Pushbutton
import Testing

/// The generated Swift compiles (the golden files are part of this test target) and declares exactly
/// what the manifest declares.
@Suite struct CodegenTests {
    @Test func theGoldenFilesAreWhatCodegenWritesToday() throws {
        let output = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: output) }
        for (manifest, typeName) in [
            ("manifest.json", "ExampleNotificationCategories"),
            ("legacy-manifest.json", "LegacyNotificationCategories"),
        ] {
            let result = try CLI.run([
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

    @Test func awkwardIdentifiersAndTextsStillCompile() throws {
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
        let generated = try CLI.run(["codegen", manifestURL.path, "-o", directory.path, "--no-strings"])
        #expect(generated.status == 0, "\(generated.stderr)")
        let swiftc = Process()
        swiftc.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        swiftc.arguments = [
            "swiftc", "-typecheck", "-I", CLI.productsDirectory.appendingPathComponent("Modules").path,
            "-I", CLI.productsDirectory.path, directory.appendingPathComponent("NotificationCategories.swift").path,
        ]
        try swiftc.run()
        swiftc.waitUntilExit()
        #expect(swiftc.terminationStatus == 0)
    }
}
