import Pushbutton
import PushbuttonSupport

/// A self-contained HTML page (no external resources) showing a notification as iOS draws it: the banner,
/// then the expanded notification with its buttons.
public enum HTMLPreviewRenderer {
    /// The whole page for `preview`, its `lang` set to `locale`.
    public static func render(_ preview: NotificationPreview, locale: String) -> String {
        page(preview, locale: locale).text
    }

    /// The page as markup (the console puts it into its preview frame).
    package static func page(_ preview: NotificationPreview, locale: String) -> HTML {
        var html: HTML = """
            <!DOCTYPE html>
            <html lang="\(locale)"\(preview.isRightToLeft ? HTML(" dir=\"rtl\"") : "")>
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=390">
            <title>\(preview.title ?? preview.body) — Pushbutton preview</title>
            <style>\(style)</style>
            </head>
            <body>
            <main class="phone" data-category="\(preview.category ?? "")"\
            \(preview.previewsHidden ? HTML(" data-previews-hidden") : "")>
            <h2>Banner</h2>
            <section class="banner">\(card(preview, large: false))</section>
            <h2>Expanded</h2>
            <section class="expanded">\(media(preview))\(card(preview, large: true))

            """
        if !preview.buttons.isEmpty {
            html += "<ul class=\"actions\">\n"
            for button in preview.buttons { html += action(button) }
            html += "</ul>\n"
        }
        if let note = preview.note { html += "<p class=\"note\">\(note)</p>\n" }
        html += """
            </section>
            <footer class="legend">\(lockIcon) needs an unlocked device · \(opensIcon) opens the app · \
            <span class="red">red</span>: destructive</footer>
            </main>
            </body>
            </html>

            """
        return html
    }

    private static func card(_ preview: NotificationPreview, large: Bool) -> HTML {
        var html: HTML = "<div class=\"card\(large ? " large" : "")\">"
        html += "<header><span class=\"app-icon\">\(String(preview.appName.prefix(1)).uppercased())</span>"
        html += "<span class=\"app\">\(preview.appName.uppercased())</span><span class=\"time\">now</span></header>"
        if let title = preview.title { html += "<p class=\"title\">\(title)</p>" }
        if let subtitle = preview.subtitle { html += "<p class=\"subtitle\">\(subtitle)</p>" }
        html += "<p class=\"body\(large ? "" : " clamp")\">\(preview.body)</p></div>"
        return html
    }

    /// The media above the expanded text: the image, video or sound itself when there is a source, else a frame
    /// with the file's name.
    private static func media(_ preview: NotificationPreview) -> HTML {
        guard let media = preview.media else { return "" }
        guard let source = preview.mediaSource else {
            return "<div class=\"media placeholder\" data-media=\"\(media.kind.rawValue)\">"
                + "\(media.kind.rawValue) · \(preview.mediaFileName ?? "")</div>"
        }
        switch media.kind {
        case .image, .gif:
            return "<img class=\"media\" src=\"\(source)\" alt=\"\(preview.mediaFileName ?? "")\">"
        case .video: return "<video class=\"media\" src=\"\(source)\" controls muted></video>"
        case .audio: return "<audio class=\"media\" src=\"\(source)\" controls></audio>"
        }
    }

    private static func action(_ button: NotificationPreview.Button) -> HTML {
        var classes = ["action"]
        if button.isDestructive { classes.append("destructive") }
        classes.append(button.opensApp ? "foreground" : "background")
        if button.requiresUnlock { classes.append("authentication") }
        if button.textField != nil { classes.append("text-input") }
        var html: HTML = "<li class=\"\(classes.joined(separator: " "))\" data-action=\"\(button.identifier)\">"
        html += "<span class=\"label\">\(button.title)</span><span class=\"traits\">"
        if button.requiresUnlock {
            html += "<span class=\"lock\" title=\"needs an unlocked device\">\(lockIcon)</span>"
        }
        if button.opensApp { html += "<span class=\"opens\" title=\"opens the app\">\(opensIcon)</span>" }
        if let icon = button.icon { html += "<span class=\"symbol\" title=\"\(icon)\">\(icon)</span>" }
        html += "</span>"
        if let field = button.textField {
            html += "<div class=\"text-field\"><span class=\"placeholder\">\(field.placeholder)</span>"
            html += "<span class=\"send\">\(field.sendTitle)</span></div>"
        }
        return html + "</li>\n"
    }

    /// Text for HTML and SVG (XML) content and attribute values: ``HTML``'s escaping, which every renderer here
    /// now applies by default (interpolated text is escaped unless it is markup).
    @available(*, deprecated, message: "markup escapes interpolated text by default; this forwards to HTML.escape")
    public static func escape(_ text: String) -> String { HTML.escape(text) }

    static let lockIcon: HTML =
        "<svg class=\"glyph\" viewBox=\"0 0 12 14\" width=\"11\" height=\"13\" aria-hidden=\"true\">"
        + "<rect x=\"1\" y=\"6\" width=\"10\" height=\"8\" rx=\"2\"/><path d=\"M3.5 6V4a2.5 2.5 0 0 1 5 0v2\" "
        + "fill=\"none\" stroke=\"currentColor\" stroke-width=\"1.6\"/></svg>"
    static let opensIcon: HTML =
        "<svg class=\"glyph\" viewBox=\"0 0 12 12\" width=\"11\" height=\"11\" aria-hidden=\"true\">"
        + "<path d=\"M3 9L9 3M4 3h5v5\" fill=\"none\" stroke=\"currentColor\" stroke-width=\"1.6\"/></svg>"

    private static let style: HTML = """
        *{box-sizing:border-box;margin:0;padding:0}
        body{font:15px/1.3 -apple-system,"SF Pro Text","Helvetica Neue",Arial,sans-serif;color:#111;\
        background:linear-gradient(160deg,#1d3557,#457b9d 55%,#a8dadc);min-height:100vh}
        .phone{width:390px;max-width:100%;margin:0 auto;padding:16px 10px 24px}
        h2{font-size:11px;letter-spacing:.08em;text-transform:uppercase;color:rgba(255,255,255,.75);margin:10px 6px 6px}
        .card{background:rgba(245,245,247,.92);border-radius:20px;padding:11px 14px 12px;\
        box-shadow:0 4px 18px rgba(0,0,0,.18)}
        .card header{display:flex;align-items:center;gap:7px;font-size:12px;color:#6e6e73;margin-bottom:3px}
        .app-icon{width:20px;height:20px;border-radius:5px;background:#34c759;color:#fff;font-weight:700;\
        font-size:12px;display:flex;align-items:center;justify-content:center}
        .app{flex:1;letter-spacing:.02em}
        .title,.subtitle{font-weight:600}
        .clamp{display:-webkit-box;-webkit-line-clamp:2;-webkit-box-orient:vertical;overflow:hidden}
        .large{padding:14px 16px 16px}
        .large .body{font-size:16px}
        .actions{list-style:none;margin-top:8px;background:rgba(245,245,247,.92);border-radius:14px;overflow:hidden}
        .action{display:flex;flex-wrap:wrap;align-items:center;padding:12px 16px;font-size:17px;\
        border-top:1px solid rgba(60,60,67,.18)}
        .action:first-child{border-top:none}
        .label{flex:1}
        .traits{display:flex;gap:8px;align-items:center;color:#6e6e73}
        .destructive,.destructive .traits{color:#ff3b30}
        .glyph{fill:currentColor}
        .symbol{font-size:11px;border:1px solid currentColor;border-radius:6px;padding:1px 5px}
        .text-field{flex-basis:100%;display:flex;margin-top:9px;border:1px solid rgba(60,60,67,.3);\
        border-radius:18px;padding:6px;padding-inline-start:12px;background:#fff;font-size:15px}
        .placeholder{flex:1;color:#8e8e93}
        .send{background:#007aff;color:#fff;border-radius:14px;padding:2px 10px;font-weight:600}
        .note{margin-top:10px;padding:10px 12px;border-radius:12px;background:rgba(255,204,0,.9);font-size:13px}
        .media{display:block;width:100%;max-height:360px;object-fit:cover;border-radius:20px 20px 0 0;margin-bottom:-8px}
        .placeholder.media{display:flex;align-items:center;justify-content:center;height:160px;background:#d1d1d6;\
        color:#3a3a3c;font-size:13px;margin-bottom:0;border-radius:20px;margin-bottom:8px}
        .legend{margin:14px 6px 0;font-size:11px;color:rgba(255,255,255,.85)}
        .legend .glyph{fill:currentColor;vertical-align:-2px}
        .red{color:#ffb3ad}
        """
}
