import Foundation
import PushbuttonPreview
import Testing

@testable import PushbuttonCLI

/// `pushbutton preview` in Arabic (laid out right to left) and Japanese (wrapped without spaces), drawn by a
/// real browser with the fonts scripts/deps.sh installs.
@Suite(.timeLimit(.minutes(2))) struct LocalizedPreviewTests {
    static let manifest = #"{"version": 1, "builtins": ["pushbutton.reply", "pushbutton.like_share"]}"#
    static let arabic = #"""
        {"aps": {"alert": {"title": "ليلى", "body": "هل نلتقي غدًا عند الظهر لتناول الغداء؟ أرسلت لك العنوان."},
         "category": "pushbutton.reply"}}
        """#
    static let japanese = #"""
        {"aps": {"alert": {"title": "さくら", "body": "新しい写真を投稿しました。週末の京都旅行の写真です！"},
         "category": "pushbutton.like_share"}}
        """#

    /// Writes the manifest and `payload`, runs `preview --locale locale`, and returns the HTML, the SVG and their paths.
    static func render(_ payload: String, locale: String, in directory: URL) async throws -> (
        result: CLI.Result, html: String, svg: String, prefix: String
    ) {
        let manifestPath = directory.appendingPathComponent("manifest.json").path
        let payloadPath = directory.appendingPathComponent("\(locale).json").path
        try Data(manifest.utf8).write(to: URL(fileURLWithPath: manifestPath))
        try Data(payload.utf8).write(to: URL(fileURLWithPath: payloadPath))
        let prefix = directory.appendingPathComponent("preview-\(locale)").path
        let result = try await CLI.run([
            "preview", payloadPath, "--manifest", manifestPath, "--locale", locale, "--app-name", "Chatter",
            "--output", prefix,
        ])
        let html = (try? String(contentsOfFile: prefix + ".html", encoding: .utf8)) ?? ""
        let svg = (try? String(contentsOfFile: prefix + ".svg", encoding: .utf8)) ?? ""
        return (result, html, svg, prefix)
    }

    @Test func arabicIsLaidOutRightToLeftWithArabicButtons() async throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (result, html, svg, _) = try await Self.render(Self.arabic, locale: "ar", in: directory)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(html.contains(#"<html lang="ar" dir="rtl">"#))
        #expect(html.contains(#"<span class="label">رد</span>"#))
        #expect(html.contains(#"<span class="placeholder">رسالة</span><span class="send">إرسال</span>"#))
        #expect(svg.contains(#"xml:lang="ar""#) && svg.contains(#"<g transform="matrix(-1 0 0 1 390 0)">"#))
        #expect(svg.contains("text{direction:rtl;text-anchor:end;") && svg.contains(">رد</text>"))
    }

    @Test func japaneseIsLeftToRightAndItsBodyWrapsWithoutSpaces() async throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (result, html, svg, _) = try await Self.render(Self.japanese, locale: "ja", in: directory)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(html.contains(#"<html lang="ja">"#) && !html.contains("dir=\"rtl\""))
        #expect(html.contains(#"<span class="label">いいね</span>"#) && html.contains(#"<span class="label">共有</span>"#))
        #expect(svg.contains(#"xml:lang="ja""#) && !svg.contains("direction:rtl"))
        // 26 wide characters are 52 columns: the SVG breaks the body after 23 (46 columns).
        #expect(svg.contains(">新しい写真を投稿しました。週末の京都旅行の写真</text>") && svg.contains(">です！</text>"))
    }

    @Test func wrappingCountsWideCharactersTwiceAndBreaksLongWords() {
        #expect(SVGPreviewRenderer.wrap("one two three", limit: 7) == ["one two", "three"])
        #expect(SVGPreviewRenderer.wrap("日本語のテキスト", limit: 6) == ["日本語", "のテキ", "スト"])
        #expect(SVGPreviewRenderer.wrap("go 日本語", limit: 6) == ["go", "日本語"])
        #expect(SVGPreviewRenderer.wrap("abcdefgh", limit: 3) == ["abc", "def", "gh"])
        #expect(SVGPreviewRenderer.wrap("", limit: 5) == [""])
    }

    /// The screenshots: a PNG of the expected size, with glyphs drawn (the fonts for both scripts installed).
    @Test func aBrowserDrawsBothWithRealGlyphs() async throws {
        for language in ["ar", "ja"] {
            let fonts = try await CLI.run(URL(fileURLWithPath: "/usr/bin/fc-list"), [":lang=\(language)", "family"])
            #expect(fonts.status == 0 && !fonts.stdout.isEmpty, "no font for '\(language)': run scripts/deps.sh")
        }
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        for (payload, locale) in [(Self.arabic, "ar"), (Self.japanese, "ja")] {
            let (result, _, _, prefix) = try await Self.render(payload, locale: locale, in: directory)
            #expect(result.status == 0, "\(result.stderr)")
            for file in [prefix + ".html", prefix + ".svg"] {
                let png = file + ".png"
                let browser = try await BrowserScreenshot.take(of: file, to: png, width: 390, height: 560)
                #expect(browser.status == 0, "\(browser.stderr)")
                let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: png)))
                #expect(bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]), "\(png) is a PNG")
                let width = bytes[16..<20].reduce(0) { $0 << 8 | Int($1) }
                let height = bytes[20..<24].reduce(0) { $0 << 8 | Int($1) }
                #expect(width == 390 && height == 560)
                #expect(bytes.count > 20_000, "\(png) is \(bytes.count) bytes: nothing drawn?")
            }
        }
    }
}
