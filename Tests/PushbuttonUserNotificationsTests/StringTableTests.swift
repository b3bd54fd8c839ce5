import Foundation
import Pushbutton
import PushbuttonReceiver
import PushbuttonUserNotifications
import Testing

#if canImport(UserNotifications)
    import UserNotifications
#else
    import UserNotificationsStandIn
#endif

/// Titles come from the app's string table (what `pushbutton codegen` writes) where it has the key, in the app's
/// language, and from the manifest's translations otherwise.
@Suite struct StringTableTests {
    static let like = Action(
        "like", title: .localized(key: "chatter.like", values: ["en": "Like", "fr": "J'aime"]))
    static let reply = Action(
        "reply", title: .localized(key: "chatter.reply", values: ["en": "Reply", "fr": "Répondre"]))

    static func registeredTitles(_ center: SystemNotificationCenter, _ system: UNUserNotificationCenter) async
        -> [String]
    {
        await center.setNotificationCategories([Pushbutton.Category("message", actions: [like, reply])])
        let registered = await withCheckedContinuation { continuation in
            system.getNotificationCategories { continuation.resume(returning: $0) }
        }
        return registered.first?.actions.map(\.title) ?? []
    }

    @Test func aTranslatorsEditInTheTableWinsAndMissingKeysKeepTheManifests() async {
        let system = UNUserNotificationCenter()
        let table = StringTable { key in key == "chatter.like" ? "J'adore" : nil }
        let center = SystemNotificationCenter(center: system, locale: "fr", strings: table)
        #expect(await Self.registeredTitles(center, system) == ["J'adore", "Répondre"])
        let form = center.registeredForm(of: Pushbutton.Category("message", actions: [Self.like]))
        #expect(form.actions.first?.title == .literal("J'adore"))
    }

    @Test func withoutATableTheManifestsTranslationForTheAppsLanguageIsShown() async {
        let system = UNUserNotificationCenter()
        let center = SystemNotificationCenter(center: system, locale: "fr")  // the main bundle has no table here
        #expect(await Self.registeredTitles(center, system) == ["J'aime", "Répondre"])
    }

    @Test func theTableIsReadFromTheBundlesLprojFolderForTheLanguage() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("pb-strings-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        for (locale, text) in [("fr", "J'adore"), ("de", "Gefällt mir")] {
            let folder = root.appendingPathComponent("\(locale).lproj")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data("/* generated */\n\"chatter.like\" = \"\(text)\";\n".utf8)
                .write(to: folder.appendingPathComponent("\(StringTable.defaultName).strings"))
        }
        let bundle = try #require(Bundle(url: root))
        #expect(StringTable.bundle(bundle, localization: "fr").text(for: "chatter.like") == "J'adore")
        #expect(StringTable.bundle(bundle, localization: "de").text(for: "chatter.like") == "Gefällt mir")
        #expect(StringTable.bundle(bundle, localization: "fr").text(for: "chatter.reply") == nil)
    }
}
