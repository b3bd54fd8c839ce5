import Foundation
import Pushbutton
import Testing

/// `pushbutton builtins`: every locale for every title in the JSON, titles by locale with fallbacks, the locale list.
@Suite(.timeLimit(.minutes(5))) struct BuiltinsCommandTests {
    @Test func jsonListsEveryLocaleForEveryTitle() async throws {
        let result = try await CLI.run(["builtins", "--json"])
        #expect(result.status == 0 && result.stderr.isEmpty)
        let categories = try #require(try JSONParser.parse(Array(result.stdout.utf8)).arrayValue)
        #expect(categories.count == BuiltinCategories.identifiers.count)
        var texts = 0
        for category in categories {
            for action in category["actions"]?.arrayValue ?? [] {
                let name = action["identifier"]?.stringValue ?? "?"
                for text in [action["title"], action["textInput"]?["buttonTitle"], action["textInput"]?["placeholder"]]
                {
                    guard let text else { continue }
                    texts += 1
                    let values = text["values"]?.objectValue ?? [:]
                    #expect(Set(values.keys) == Set(BuiltinCategories.locales), "\(name)")
                    #expect(values.values.allSatisfy { $0.stringValue?.isEmpty == false }, "\(name)")
                }
            }
        }
        #expect(texts > 60)
    }

    @Test func titlesInALocaleAndItsFallbacks() async throws {
        let arabic = try await CLI.run(["builtins", "--locale", "ar"])
        #expect(arabic.status == 0)
        #expect(
            arabic.stdout.contains("pushbutton.yes_no  ")
                && arabic.stdout.contains("نعم (foreground) · لا (background, unlock)"))
        #expect(!arabic.stdout.contains("Titles in"))
        let portugal = try await CLI.run(["builtins", "--locale", "pt-PT"])
        #expect(portugal.stdout.contains("Partilhar (foreground)") && !portugal.stdout.contains("Compartilhar"))
        let argentina = try await CLI.run(["builtins", "--locale", "es_AR"])
        #expect(argentina.stdout.contains("Agregar (background, unlock)"))
        #expect(argentina.stdout.hasSuffix("Titles in es-419, the built-in locale a device set to es_AR uses.\n"))
        let macao = try await CLI.run(["builtins", "--locale", "zh-MO"])
        #expect(macao.stdout.contains("加入日曆 (foreground)") && macao.stdout.contains("zh-HK"))
    }

    @Test func aLocaleWithoutTitlesSaysSoAndABadOneIsAUsageError() async throws {
        let swahili = try await CLI.run(["builtins", "--locale", "sw-KE"])
        #expect(swahili.status == 0 && swahili.stdout.contains("Yes (foreground) · No (background, unlock)"))
        #expect(
            swahili.stdout.hasSuffix(
                "note: no built-in titles in 'sw-KE': a device shows English (see --locales for the list)\n"))
        let bad = try await CLI.run(["builtins", "--locale", "French"])
        #expect(bad.status == 2 && bad.stdout.isEmpty)
        #expect(bad.stderr.hasPrefix("pushbutton: error: --locale 'French' is not a language identifier"))
        #expect(bad.stderr.split(separator: "\n").count == 1)
    }

    @Test func localesListsEachWithItsNameAndDirection() async throws {
        let result = try await CLI.run(["builtins", "--locales"])
        #expect(result.status == 0)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == BuiltinCategories.locales.count + 1)
        #expect(lines.first == "ar       Arabic · right to left")
        #expect(lines.contains("pt-PT    Portuguese (Portugal)") && lines.contains("he       Hebrew · right to left"))
        #expect(lines.last == "41 locales.")
    }
}
