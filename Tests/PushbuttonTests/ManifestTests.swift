import Foundation
import PushbuttonSupport
import Testing

@testable import Pushbutton

@Suite struct ManifestTests {
    /// A one-category manifest around `actions` JSON, with optional extra top-level members.
    static func manifest(actions: String, category: String = "", top: String = "") -> String {
        #"{"version": 1, \#(top) "categories": [{"identifier": "c", \#(category) "actions": [\#(actions)]}]}"#
    }

    static func find(_ code: Diagnostic.Code, in text: String) -> [Diagnostic] {
        Manifest.parse(text).diagnostics.filter { $0.code == code }
    }

    @Test func theExampleManifestsAreUsable() throws {
        for name in ["manifest", "legacy-manifest"] {
            let result = Manifest.parse(Array(try Data(contentsOf: TestFiles.example(name))))
            #expect(result.isUsable, "\(name): \(result.diagnostics)")
        }
        let broken = Manifest.parse(Array(try Data(contentsOf: TestFiles.example("broken-manifest"))))
        #expect(!broken.isUsable)
    }

    @Test func readsEveryPartOfTheFormat() throws {
        let result = Manifest.parse(Array(try Data(contentsOf: TestFiles.example("manifest"))))
        let manifest = try #require(result.manifest)
        #expect(manifest.locales == ["en", "fr", "de"])
        #expect(manifest.builtins.count == 3)
        let message = manifest.categories[0]
        #expect(message.options == [.customDismissAction, .hiddenPreviewsShowTitle])
        #expect(message.hiddenPreviewsBodyPlaceholder?.resolved(for: "de") == "Neue Nachricht")
        #expect(message.summaryFormat?.resolved(for: "fr") == "%u autres messages")
        #expect(message.actions[0].textInput?.placeholder.resolved(for: "fr") == "Votre message")
        #expect(message.actions[0].icon == .system("arrowshape.turn.up.left"))
        #expect(message.actions[2].options == [.destructive, .authenticationRequired])
        let set = manifest.categorySet()
        #expect(set.identifiers.contains("pushbutton.yes_no") && set.identifiers.contains("message"))
        #expect(set.source(of: "message")?.name == "manifest")
    }

    @Test func malformedJSONIsOneErrorWithLineAndColumn() throws {
        let result = Manifest.parse("{\n  \"version\": 1,\n  \"categories\": [,]\n}")
        #expect(result.manifest == nil)
        let error = try #require(result.diagnostics.first)
        #expect(error.code == .jsonSyntax && error.severity == .error)
        #expect(error.location?.line == 3 && error.location?.column == 18)
    }

    @Test func unknownKeysAreWarningsWithADidYouMean() throws {
        let warning = try #require(
            Self.find(.unknownKey, in: Self.manifest(actions: "", category: #""optoins": [],"#)).first)
        #expect(warning.severity == .warning)
        #expect(warning.path.description == "categories[0].optoins")
        #expect(warning.hint == "did you mean 'options'?")
        #expect(warning.location != nil)
    }

    @Test(arguments: [
        // (actions JSON, expected code, expected path, severity)
        (
            #"{"identifier": "", "title": "T"}"#, Diagnostic.Code.emptyIdentifier,
            "categories[0].actions[0].identifier", Diagnostic.Severity.error
        ),
        (
            #"{"identifier": "a", "title": "T"}, {"identifier": "a", "title": "U"}"#, .duplicateAction,
            "categories[0].actions[1].identifier", .error
        ),
        (
            #"{"identifier": "com.apple.UNNotificationDefaultActionIdentifier", "title": "T"}"#, .systemIdentifier,
            "categories[0].actions[0].identifier", .error
        ),
        (
            #"{"identifier": "pushbutton.like", "title": "T"}"#, .reservedPrefix, "categories[0].actions[0].identifier",
            .error
        ),
        (
            #"{"identifier": "a b", "title": "T"}"#, .identifierWhitespace, "categories[0].actions[0].identifier",
            .warning
        ),
        (#"{"identifier": "a", "title": "  "}"#, .emptyTitle, "categories[0].actions[0].title", .error),
        (#"{"identifier": "a"}"#, .missingField, "categories[0].actions[0].title", .error),
        (#"{"identifier": "a", "title": 3}"#, .typeMismatch, "categories[0].actions[0].title", .error),
        (
            #"{"identifier": "a", "title": "T", "options": ["foregound"]}"#, .unknownOption,
            "categories[0].actions[0].options[0]", .error
        ),
        (
            #"{"identifier": "a", "title": "T", "textInput": {}}"#, .textInputButtonTitle,
            "categories[0].actions[0].textInput", .warning
        ),
        (
            #"{"identifier": "a", "title": "T", "options": ["destructive", "foreground"]}"#, .destructiveForeground,
            "categories[0].actions[0].options", .note
        ),
        (
            #"{"identifier": "a", "title": "T", "options": ["destructive"]}"#, .destructiveUnauthenticated,
            "categories[0].actions[0].options", .warning
        ),
        (#"{"identifier": "a", "title": "T", "icon": {}}"#, .emptyIcon, "categories[0].actions[0].icon", .error),
        (
            #"{"identifier": "a", "title": "T", "icon": {"systemImage": "x", "templateImage": "y"}}"#, .iconConflict,
            "categories[0].actions[0].icon", .error
        ),
        (
            #"{"identifier": "a", "title": "T", "activationMode": "foreground"}"#, .legacyModernMixed,
            "categories[0].actions[0]", .error
        ),
        (
            #"{"identifier": "a", "title": "An extremely long button title that will not fit"}"#, .longTitle,
            "categories[0].actions[0].title", .note
        ),
        (
            #"{"identifier": "a", "title": {"key": "", "values": {"en": "A"}}}"#, .emptyLocalization,
            "categories[0].actions[0].title.key", .error
        ),
        (
            #"{"identifier": "a", "title": {"key": "k", "values": {}}}"#, .emptyLocalization,
            "categories[0].actions[0].title.values", .error
        ),
        ("", .noActions, "categories[0].actions", .warning),
        ("7", .typeMismatch, "categories[0].actions[0]", .error),
    ])
    func actionRules(actions: String, code: Diagnostic.Code, path: String, severity: Diagnostic.Severity) throws {
        let found = Self.find(code, in: Self.manifest(actions: actions))
        let diagnostic = try #require(
            found.first, "no \(code) in \(Manifest.parse(Self.manifest(actions: actions)).diagnostics)")
        #expect(diagnostic.path.description == path)
        #expect(diagnostic.severity == severity)
        #expect(diagnostic.location != nil)
        #expect(!diagnostic.message.isEmpty)
    }

    @Test func aLongIdentifierIsAWarning() {
        let long = String(repeating: "x", count: 65)
        #expect(
            Self.find(.identifierLength, in: Self.manifest(actions: #"{"identifier": "\#(long)", "title": "T"}"#)).count
                == 1)
    }

    @Test func actionCountsSayWhatIsShownWhere() throws {
        let eleven = (0..<11).map { #"{"identifier": "a\#($0)", "title": "T"}"# }.joined(separator: ",")
        let text = Self.manifest(actions: eleven)
        let tooMany = try #require(Self.find(.tooManyActions, in: text).first)
        #expect(tooMany.message.contains("a10"))
        let banner = try #require(Self.find(.actionsHiddenInBanner, in: text).first)
        #expect(banner.message.contains("first 2") && banner.message.contains("'a0' and 'a1'"))
        #expect(banner.message.contains("iOS 8/9 alerts showed only 4"))
    }

    @Test func duplicateCategoriesAndInconsistentActionsAcrossCategories() throws {
        let text = #"""
            {"version": 1, "categories": [
              {"identifier": "c", "actions": [{"identifier": "like", "title": "Like"}]},
              {"identifier": "d", "actions": [{"identifier": "like", "title": "Like", "options": ["foreground"]}]},
              {"identifier": "c", "actions": [{"identifier": "x", "title": "X"}]}
            ]}
            """#
        let duplicate = try #require(Self.find(.duplicateCategory, in: text).first)
        #expect(duplicate.path.description == "categories[2].identifier")
        #expect(duplicate.location?.line == 4)
        let inconsistent = try #require(Self.find(.inconsistentAction, in: text).first)
        #expect(inconsistent.path.description == "categories[1].actions[0]")
        #expect(inconsistent.message.contains("categories[0].actions[0]"))
    }

    @Test func translationsAreCheckedAgainstTheDeclaredLocales() throws {
        let text = Self.manifest(
            actions:
                #"{"identifier": "a", "title": {"key": "a", "values": {"en": "A", "it": "A"}}}, {"identifier": "b", "title": "B"}"#,
            top: #""locales": ["en", "fr"],"#)
        let missing = try #require(Self.find(.missingTranslation, in: text).first { $0.severity == .warning })
        #expect(missing.message.contains("'fr'"))
        #expect(
            Self.find(.undeclaredLocale, in: text).first?.path.description == "categories[0].actions[0].title.values.it"
        )
        #expect(
            Self.find(.missingTranslation, in: text).contains { $0.severity == .note && $0.message.contains("\"B\"") })
    }

    @Test func localesAndTheDefaultLocaleAreChecked() {
        let text = Self.manifest(actions: "", top: #""locales": ["en", "english", "en"], "defaultLocale": "fr","#)
        #expect(Self.find(.invalidLocale, in: text).count == 1)
        #expect(Self.find(.duplicateKey, in: text).count == 1)
        #expect(Self.find(.defaultLocale, in: text).first?.severity == .error)
    }

    @Test func versionsAndBuiltinsAreChecked() throws {
        #expect(Self.find(.missingField, in: #"{"categories": []}"#).first?.path.description == "version")
        #expect(Self.find(.unsupportedVersion, in: #"{"version": 2, "categories": []}"#).count == 1)
        let text =
            #"{"version": 1, "builtins": ["yes_no", "pushbutton.like_shar", "pushbutton.share", "pushbutton.share", 4]}"#
        let unknown = Self.find(.unknownBuiltin, in: text)
        #expect(
            unknown.map(\.hint) == [
                "built-ins are named with their prefix: write 'pushbutton.yes_no'",
                "did you mean 'pushbutton.like_share'?",
            ])
        #expect(Self.find(.duplicateBuiltin, in: text).count == 1)
        #expect(Self.find(.typeMismatch, in: text).first?.path.description == "builtins[4]")
    }

    @Test func categoryLevelRules() {
        let text = Self.manifest(
            actions: #"{"identifier": "a", "title": "A"}"#,
            category: #""summaryFormat": "More", "options": ["allowAnnouncement"], "intentIdentifiers": [""],"#)
        #expect(Self.find(.summaryFormat, in: text).count == 1)
        #expect(Self.find(.deprecatedOption, in: text).first?.severity == .note)
        #expect(Self.find(.emptyIntentIdentifier, in: text).count == 1)
        #expect(
            Self.find(
                .reservedPrefix,
                in: #"{"version": 1, "categories": [{"identifier": "pushbutton.yes_no", "actions": []}]}"#
            ).first?.hint == "list it in 'builtins' instead of redefining it")
        #expect(
            Self.find(.noActions, in: Self.manifest(actions: "", category: #""options": ["customDismissAction"],"#))
                .isEmpty)
    }

    @Test func legacyAndModernMixturesAreErrorsNotSilentGuesses() {
        let sameIdentifier = #"""
            {"version": 1, "categories": [{"identifier": "c", "actions": [{"identifier": "a", "title": "A"}]}],
             "legacyCategories": [{"identifier": "c", "defaultActions": [{"identifier": "a", "title": "A"}]}]}
            """#
        #expect(
            Self.find(.legacyModernMixed, in: sameIdentifier).first?.path.description
                == "legacyCategories[0].identifier")
        let contextsInModern = Self.manifest(actions: "", category: #""defaultActions": [],"#)
        #expect(Self.find(.legacyModernMixed, in: contextsInModern).count == 1)
        let modernInLegacy =
            #"{"version": 1, "legacyCategories": [{"identifier": "c", "actions": [], "defaultActions": [{"identifier": "a", "title": "A", "options": []}]}]}"#
        #expect(Self.find(.legacyModernMixed, in: modernInLegacy).count == 2)
        let badMode =
            #"{"version": 1, "legacyCategories": [{"identifier": "c", "defaultActions": [{"identifier": "a", "title": "A", "activationMode": "foregrund"}]}]}"#
        #expect(Self.find(.unknownOption, in: badMode).first?.hint == "did you mean 'foreground'?")
    }

    @Test func legacyConversionWarningsAppearWithSourcePaths() throws {
        let result = Manifest.parse(Array(try Data(contentsOf: TestFiles.example("legacy-manifest"))))
        let both = try #require(result.diagnostics.first { $0.code == .legacyBothContexts })
        #expect(both.path.description == "legacyCategories[0].minimalActions")
        #expect(both.location?.line == 12)
        #expect(
            result.diagnostics.contains {
                $0.code == .legacyTextInputTitle && $0.path.description == "legacyCategories[0].defaultActions[2]"
            })
    }

    @Test func duplicateMembersAreReported() {
        #expect(Self.find(.duplicateKey, in: #"{"version": 1, "version": 1, "categories": []}"#).count == 1)
    }

    @Test func theManifestRoundTripsThroughItsJSONAndThroughCodable() throws {
        let original = try #require(Manifest.parse(Array(try Data(contentsOf: TestFiles.example("manifest")))).manifest)
        #expect(Manifest.parse(JSONWriter.compact(original.manifestJSON)).manifest == original)
        let data = try JSONEncoder().encode(original)
        #expect(try JSONDecoder().decode(Manifest.self, from: data) == original)
        let legacy = try #require(
            Manifest.parse(Array(try Data(contentsOf: TestFiles.example("legacy-manifest")))).manifest)
        #expect(try JSONDecoder().decode(Manifest.self, from: JSONEncoder().encode(legacy)) == legacy)
        let action = Action.textInput(
            "r", title: .localized(key: "k", values: ["en": "R"]), placeholder: "P", icon: .template("t"))
        #expect(try JSONDecoder().decode(Action.self, from: JSONEncoder().encode(action)) == action)
    }

    @Test func decodingAnInvalidDocumentThrowsWithTheReason() {
        #expect {
            try JSONDecoder().decode(
                Category.self, from: Data(#"{"identifier": "c", "actions": [{"identifier": "a"}]}"#.utf8))
        } throws: { error in
            "\(error)".contains("actions[0].title")
        }
    }

    @Test func neverTrapsOnMutatedInput() throws {
        // A deterministic mutation run over the example manifest; the libFuzzer target goes much further.
        let seed = Array(try Data(contentsOf: TestFiles.example("broken-manifest")))
        var generator = SplitMix64(seed: 42)
        for _ in 0..<2000 {
            var bytes = seed
            for _ in 0..<Int(generator.next() % 8 + 1) {
                let index = Int(generator.next() % UInt64(bytes.count))
                switch generator.next() % 3 {
                case 0: bytes[index] = UInt8(truncatingIfNeeded: generator.next())
                case 1: bytes.remove(at: index)
                default:
                    let palette = Array("{}[]\",:0\\".utf8)
                    bytes.insert(palette[Int(generator.next() % UInt64(palette.count))], at: index)
                }
            }
            _ = Manifest.parse(bytes)
        }
    }
}
