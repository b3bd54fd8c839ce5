import Foundation
import Testing

/// `pushbutton demo`, the README's main command, end to end.
@Suite(.timeLimit(.minutes(5))) struct DemoCommandTests {
    @Test func runsTheWholePathAndKeepsItsFiles() async throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let demo = try await OffPool.cli(["demo", "--keep", directory.path])
        #expect(demo.status == 0, "\(demo.stderr)")
        #expect(demo.stderr.isEmpty)
        #expect(demo.stdout.contains("All ") && demo.stdout.contains(" checks passed in "))
        #expect(!demo.stdout.contains("✗"))
        for step in [
            "Start a local APNs", "Send six notifications", "The device shows them", "The user taps",
            "The outbox delivers the background tap", "Tap statistics and outbox status",
        ] {
            #expect(demo.stdout.contains(step))
        }
        #expect(demo.stdout.contains("410 Unregistered") && demo.stdout.contains("answered 503"))

        let files = [
            "manifest.json", "payloads/lunch.json", "payloads/party.json", "outbox.sqlite", "tls/ca.pem", "README.txt",
        ]
        for file in files {
            #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent(file).path), "\(file)")
        }
        let key = directory.appendingPathComponent("AuthKey_DEMOKEY001.p8").path
        #expect(try FileManager.default.attributesOfItem(atPath: key)[.posixPermissions] as? Int == 0o600)
        // The kept files work with the other commands.
        let lint = try await OffPool.cli([
            "lint", directory.appendingPathComponent("manifest.json").path,
            directory.appendingPathComponent("payloads/lunch.json").path,
            directory.appendingPathComponent("payloads/party.json").path,
        ])
        #expect(lint.status == 0, "\(lint.stdout)\(lint.stderr)")
        let stats = try await OffPool.cli(["stats", directory.appendingPathComponent("outbox.sqlite").path])
        #expect(stats.status == 0 && stats.stdout.hasPrefix("5 responses to 5 recorded deliveries"))
    }

    /// `make demo` twice: the second run in the same folder starts from fresh state and passes every check.
    @Test func passesAgainInTheSameFolder() async throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        for run in 1...2 {
            let demo = try await OffPool.cli(["demo", "--keep", directory.path])
            #expect(demo.status == 0, "run \(run): \(demo.stderr)")
            #expect(demo.stdout.contains("All 32 checks passed in "), "run \(run)")
        }
        let stats = try await OffPool.cli(["stats", directory.appendingPathComponent("outbox.sqlite").path])
        #expect(stats.stdout.hasPrefix("5 responses to 5 recorded deliveries"), "\(stats.stdout)")
    }

    /// A folder kept by an older Pushbutton, before the marker file, is recognised by its README.txt.
    @Test func replacesAFolderKeptBeforeTheMarker() async throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(try await OffPool.cli(["demo", "--keep", directory.path]).status == 0)
        try FileManager.default.removeItem(at: directory.appendingPathComponent(".pushbutton-demo"))
        let again = try await OffPool.cli(["demo", "--keep", directory.path])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stdout.contains("All 32 checks passed in "))
    }

    @Test func refusesAFolderThatIsNotAnEarlierDemos() async throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let mine = directory.appendingPathComponent("notes.txt")
        try Data("mine".utf8).write(to: mine)
        let demo = try await OffPool.cli(["demo", "--keep", directory.path])
        #expect(demo.status == 2 && demo.stdout.isEmpty)
        #expect(demo.stderr.contains("is not empty and holds no earlier demo's files"))
        #expect(try String(contentsOf: mine, encoding: .utf8) == "mine")
    }

    @Test func saysWhenTheLocaleHasNoTitles() async throws {
        let demo = try await OffPool.cli(["demo", "--locale", "xx"])
        #expect(demo.status == 0, "\(demo.stderr)")
        #expect(
            demo.stderr
                == "pushbutton: warning: --locale 'xx': no titles in that language, so they are shown in en (available: en, fr)\n"
        )
        #expect(try await OffPool.cli(["demo", "--help"]).stdout.contains("sends six interactive notifications"))
    }

    @Test func speaksFrenchOnAFrenchPhone() async throws {
        let demo = try await OffPool.cli(["demo", "--locale", "fr"])
        #expect(demo.status == 0, "\(demo.stderr)")
        #expect(demo.stdout.contains("[Répondre] [J’aime] [Supprimer]"))
    }
}
