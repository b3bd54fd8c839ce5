import Foundation
import Testing

/// `pushbutton preview`: the HTML's structure, the SVG, and a real browser rendering it.
@Suite(.timeLimit(.minutes(5))) struct PreviewCommandTests {
    static func render(_ arguments: [String], payload: String = "Examples/payloads/message.json") async throws -> (
        result: CLI.Result, html: String, svg: String, prefix: String, directory: URL
    ) {
        let directory = try CLI.temporaryDirectory()
        let prefix = directory.appendingPathComponent("preview").path
        let result = try await CLI.run(
            ["preview", payload, "--manifest", "Examples/manifest.json", "--output", prefix] + arguments)
        let html = (try? String(contentsOfFile: prefix + ".html", encoding: .utf8)) ?? ""
        let svg = (try? String(contentsOfFile: prefix + ".svg", encoding: .utf8)) ?? ""
        return (result, html, svg, prefix, directory)
    }

    @Test func drawsEachButtonWithItsTraits() async throws {
        let (result, html, svg, _, directory) = try await Self.render(["--app-name", "Chatter"])
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(result.status == 0 && result.stdout.hasPrefix("wrote ") && result.stdout.contains("3 button(s)"))
        #expect(html.hasPrefix("<!DOCTYPE html>") && !html.contains("http://") && !html.contains("https://"))
        #expect(html.contains(#"<li class="action background text-input" data-action="reply">"#))
        #expect(html.contains(#"<span class="placeholder">Your message</span><span class="send">Send</span>"#))
        #expect(html.contains(#"<li class="action background authentication" data-action="like">"#))
        #expect(html.contains(#"<li class="action destructive background authentication" data-action="delete">"#))
        #expect(html.contains(#"<p class="title">Anna</p>"#) && html.contains("Lunch tomorrow at noon?"))
        #expect(html.contains(#"<span class="app">CHATTER</span>"#))
        #expect(svg.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\""))
        #expect(svg.contains(#"data-action="delete""#) && svg.contains("fill=\"#ff3b30\">Delete</text>"))
    }

    @Test func foregroundButtonsAndLocalizedTitles() async throws {
        let (result, html, _, _, directory) = try await Self.render(
            ["--locale", "fr"], payload: "Examples/payloads/friend-request.json")
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(result.status == 0)
        #expect(html.contains(#"<html lang="fr">"#))
        #expect(
            html.contains(#"<li class="action foreground" data-action="accept"><span class="label">Accepter</span>"#))
        #expect(html.contains(#"<span class="opens" title="opens the app">"#))
    }

    @Test func hiddenPreviewsShowThePlaceholder() async throws {
        let (result, html, _, _, directory) = try await Self.render(["--hidden-previews"])
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(result.status == 0)
        #expect(html.contains("data-previews-hidden") && html.contains(#"<p class="body clamp">New message</p>"#))
        #expect(!html.contains("Lunch tomorrow"))
        #expect(html.contains(#"<p class="title">Anna</p>"#))  // the category shows titles with previews hidden
    }

    @Test func anUnregisteredCategoryShowsNoButtonsAndSaysWhy() async throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let payload = directory.appendingPathComponent("p.json").path
        try Data(#"{"aps":{"alert":"Your order shipped","category":"order_shiped"}}"#.utf8).write(
            to: URL(fileURLWithPath: payload))
        let (result, html, _, _, output) = try await Self.render([], payload: payload)
        defer { try? FileManager.default.removeItem(at: output) }
        #expect(result.status == 0 && result.stdout.contains("note: Category 'order_shiped' is not registered"))
        #expect(!html.contains("<ul class=\"actions\">") && html.contains("<p class=\"note\">"))
    }

    @Test func aBrowserRendersItAtTheExpectedSize() async throws {
        let (result, _, _, prefix, directory) = try await Self.render(["--app-name", "Chatter"])
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(result.status == 0)
        for file in [prefix + ".html", prefix + ".svg"] {
            let png = file + ".png"
            let browser = try await BrowserScreenshot.take(of: file, to: png, width: 390, height: 760)
            #expect(browser.status == 0, "\(browser.stderr)")
            let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: png)))
            #expect(bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))  // a PNG
            let width = bytes[16..<20].reduce(0) { $0 << 8 | Int($1) }
            let height = bytes[20..<24].reduce(0) { $0 << 8 | Int($1) }
            #expect(width == 390 && height == 760)
            #expect(bytes.count > 10_000)  // drawn, not blank
        }
    }
}

/// chromium-headless-shell (installed by scripts/deps.sh) taking a screenshot of a local file.
enum BrowserScreenshot {
    static func take(of file: String, to png: String, width: Int, height: Int) async throws -> CLI.Result {
        try await CLI.run(
            URL(fileURLWithPath: "/usr/bin/chromium-headless-shell"),
            [
                "--no-sandbox", "--hide-scrollbars", "--disable-gpu", "--screenshot=\(png)",
                "--window-size=\(width),\(height)", "file://\(file)",
            ])
    }
}

/// `pushbutton preview` of a payload with `pushbutton.media`: the HTML embeds a local file (as a `data:` URI) or
/// loads the URL; the SVG draws a frame with the file's name.
@Suite(.timeLimit(.minutes(5))) struct PreviewMediaTests {
    static func payload(media url: String, in directory: URL) throws -> String {
        let path = directory.appendingPathComponent("payload.json").path
        let json = #"""
            {"aps": {"alert": {"title": "Sale", "body": "50% off"}, "category": "message", "mutable-content": 1},
             "pushbutton": {"v": 1, "media": {"url": "\#(url)", "type": "image"}}}
            """#
        try json.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func aLocalImageIsEmbeddedAndTheSVGShowsItsName() async throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let image = directory.appendingPathComponent("sale.png")
        try Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 1, 2, 3]).write(to: image)
        let (result, html, svg, _, output) = try await PreviewCommandTests.render(
            [], payload: try Self.payload(media: image.path, in: directory))
        defer { try? FileManager.default.removeItem(at: output) }
        #expect(result.status == 0, "\(result.stderr)")
        #expect(html.contains(#"<img class="media" src="data:image/png;base64,iVBORw0KGgoBAgM=" alt="sale.png">"#))
        #expect(svg.contains(#"<rect class="media""#) && svg.contains("image · sale.png</text>"))
    }

    @Test func aRemoteImageIsLoadedFromItsURLAndAMissingFileIsAFrame() async throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (_, remote, _, _, first) = try await PreviewCommandTests.render(
            [], payload: try Self.payload(media: "https://cdn.example.com/a/sale.jpg?w=2", in: directory))
        defer { try? FileManager.default.removeItem(at: first) }
        #expect(remote.contains(#"<img class="media" src="https://cdn.example.com/a/sale.jpg?w=2" alt="sale.jpg">"#))
        let (_, missing, _, _, second) = try await PreviewCommandTests.render(
            [], payload: try Self.payload(media: "/nonexistent/pic.jpg", in: directory))
        defer { try? FileManager.default.removeItem(at: second) }
        #expect(missing.contains(#"<div class="media placeholder" data-media="image">image · pic.jpg</div>"#))
    }
}
