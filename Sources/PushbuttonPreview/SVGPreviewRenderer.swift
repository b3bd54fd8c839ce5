import Pushbutton
import PushbuttonSupport

/// The same preview as a standalone SVG image: the banner and the expanded notification with its buttons.
/// Long text is wrapped by character count (SVG has no text layout); the HTML preview is exact.
public enum SVGPreviewRenderer {
    private static let width = 390
    private static let font: HTML = "-apple-system, 'Helvetica Neue', Arial, sans-serif"

    /// The SVG document for `preview`.
    public static func render(_ preview: NotificationPreview) -> String { image(preview).text }

    /// The image as markup.
    package static func image(_ preview: NotificationPreview) -> HTML {
        var elements: [HTML] = []
        var y = 16
        elements.append(label("BANNER", y: y + 10))
        y += 18
        y = card(preview, y: y, bodyLines: 2, into: &elements)
        y += 14
        elements.append(label("EXPANDED", y: y + 10))
        y += 18
        if let media = preview.media {
            // SVG loads nothing: a frame with the file's name stands for the media.
            elements.append(
                "<rect class=\"media\" x=\"10\" y=\"\(y)\" width=\"\(width - 20)\" height=\"150\" rx=\"20\" fill=\"#d1d1d6\"/>"
            )
            elements.append(
                "<text x=\"\(width / 2)\" y=\"\(y + 80)\" font-size=\"13\" fill=\"#3a3a3c\" text-anchor=\"middle\">"
                    + "\(media.kind.rawValue) · \(preview.mediaFileName ?? "")</text>")
            y += 158
        }
        y = card(preview, y: y, bodyLines: 8, into: &elements)
        if !preview.buttons.isEmpty {
            y += 8
            let top = y
            var rows: [HTML] = []
            for (index, button) in preview.buttons.enumerated() {
                let height = button.textField == nil ? 46 : 86
                rows.append(row(button, y: y, first: index == 0))
                y += height
            }
            elements.append(
                "<rect class=\"actions\" x=\"10\" y=\"\(top)\" width=\"\(width - 20)\" height=\"\(y - top)\" rx=\"14\" "
                    + "fill=\"#f5f5f7\" fill-opacity=\"0.94\"/>")
            elements += rows
        }
        if let note = preview.note {
            y += 10
            let lines = wrap(note, limit: 52)
            elements.append(
                "<rect x=\"10\" y=\"\(y)\" width=\"\(width - 20)\" height=\"\(lines.count * 17 + 14)\" rx=\"12\" fill=\"#ffcc00\"/>"
            )
            for (index, line) in lines.enumerated() {
                elements.append(text(line, x: 22, y: y + 21 + index * 17, size: 13))
            }
            y += lines.count * 17 + 14
        }
        let height = y + 16
        var content = elements.joined(separator: "\n")
        if preview.isRightToLeft {
            // iOS mirrors the layout: draw it mirrored, then flip each text back in place so it reads right to
            // left from the mirrored start (its right edge where the left-to-right text's left edge was).
            content =
                "<style>text{direction:rtl;text-anchor:end;transform-box:fill-box;transform-origin:center;"
                + "transform:scaleX(-1)}</style>\n<g transform=\"matrix(-1 0 0 1 \(width) 0)\">\n\(content)\n</g>"
        }
        let language: HTML = preview.language.map { " xml:lang=\"\($0.description)\"" } ?? ""
        return """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(width)" height="\(height)" \
            viewBox="0 0 \(width) \(height)" font-family="\(font)"\(language)>
            <defs><linearGradient id="wallpaper" x1="0" y1="0" x2="0.6" y2="1">\
            <stop offset="0" stop-color="#1d3557"/><stop offset="0.55" stop-color="#457b9d"/>\
            <stop offset="1" stop-color="#a8dadc"/></linearGradient></defs>
            <rect width="\(width)" height="\(height)" fill="url(#wallpaper)"/>
            \(content)
            </svg>

            """
    }

    private static func card(_ preview: NotificationPreview, y top: Int, bodyLines: Int, into elements: inout [HTML])
        -> Int
    {
        var lines: [(String, Bool)] = []
        if let title = preview.title { lines.append((title, true)) }
        if let subtitle = preview.subtitle { lines.append((subtitle, true)) }
        var body = wrap(preview.body, limit: 46)
        if body.count > bodyLines {
            body = Array(body.prefix(bodyLines))
            body[bodyLines - 1] += "…"
        }
        lines += body.map { ($0, false) }
        let height = 40 + lines.count * 19
        var card: [HTML] = [
            "<rect class=\"card\" x=\"10\" y=\"\(top)\" width=\"\(width - 20)\" height=\"\(height)\" rx=\"20\" "
                + "fill=\"#f5f5f7\" fill-opacity=\"0.94\"/>",
            "<rect x=\"24\" y=\"\(top + 11)\" width=\"20\" height=\"20\" rx=\"5\" fill=\"#34c759\"/>",
            text(
                String(preview.appName.prefix(1)).uppercased(), x: 30, y: top + 26, size: 12, weight: "700",
                color: "#fff"),
            text(preview.appName.uppercased(), x: 52, y: top + 25, size: 12, color: "#6e6e73"),
            text("now", x: width - 48, y: top + 25, size: 12, color: "#6e6e73"),
        ]
        for (index, (line, bold)) in lines.enumerated() {
            card.append(text(line, x: 24, y: top + 52 + index * 19, size: 15, weight: bold ? "600" : "400"))
        }
        elements += card
        return top + height
    }

    private static func row(_ button: NotificationPreview.Button, y: Int, first: Bool) -> HTML {
        let color = button.isDestructive ? "#ff3b30" : "#111"
        var parts: [HTML] = []
        if !first {
            parts.append(
                "<line x1=\"10\" y1=\"\(y)\" x2=\"\(width - 10)\" y2=\"\(y)\" stroke=\"#3c3c43\" stroke-opacity=\"0.18\"/>"
            )
        }
        parts.append(text(button.title, x: 26, y: y + 29, size: 17, color: color))
        var x = width - 34
        if button.opensApp {
            parts.append(
                "<path d=\"M\(x) \(y + 29)l7 -7m-5 0h5v5\" fill=\"none\" stroke=\"#6e6e73\" stroke-width=\"1.6\"/>")
            x -= 20
        }
        if button.requiresUnlock {
            parts.append(
                "<rect x=\"\(x)\" y=\"\(y + 21)\" width=\"10\" height=\"8\" rx=\"2\" fill=\"\(button.isDestructive ? color : "#6e6e73")\"/>"
                    + "<path d=\"M\(x + 2) \(y + 21)v-2a3 3 0 0 1 6 0v2\" fill=\"none\" stroke=\"\(button.isDestructive ? color : "#6e6e73")\" stroke-width=\"1.6\"/>"
            )
            x -= 20
        }
        if let icon = button.icon {
            parts.append(text(icon, x: x - 6 * icon.count, y: y + 28, size: 11, color: "#6e6e73"))
        }
        if let field = button.textField {
            parts.append(
                "<rect x=\"22\" y=\"\(y + 42)\" width=\"\(width - 44)\" height=\"34\" rx=\"17\" fill=\"#fff\" stroke=\"#3c3c43\" stroke-opacity=\"0.3\"/>"
            )
            parts.append(text(field.placeholder, x: 36, y: y + 64, size: 15, color: "#8e8e93"))
            parts.append(
                "<rect x=\"\(width - 92)\" y=\"\(y + 47)\" width=\"64\" height=\"24\" rx=\"12\" fill=\"#007aff\"/>")
            parts.append(text(field.sendTitle, x: width - 82, y: y + 64, size: 14, weight: "600", color: "#fff"))
        }
        return "<g class=\"action\" data-action=\"\(button.identifier)\">\(parts.joined())</g>"
    }

    private static func label(_ title: String, y: Int) -> HTML {
        text(title, x: 16, y: y, size: 11, color: "#ffffff")
    }

    private static func text(
        _ content: String, x: Int, y: Int, size: Int, weight: String = "400", color: String = "#111"
    ) -> HTML {
        "<text x=\"\(x)\" y=\"\(y)\" font-size=\"\(size)\" font-weight=\"\(weight)\" fill=\"\(color)\">\(content)</text>"
    }

    /// Words into lines of at most `limit` columns (a CJK character takes two). A word wider than a line is
    /// broken between characters, as Chinese and Japanese, written without spaces, break anywhere.
    public static func wrap(_ text: String, limit: Int) -> [String] {
        var lines: [String] = []
        var current = ""
        var width = 0
        for word in text.split(separator: " ", omittingEmptySubsequences: true) {
            let wordWidth = word.reduce(0) { $0 + columns($1) }
            if !current.isEmpty && width + 1 + wordWidth > limit {
                lines.append(current)
                (current, width) = ("", 0)
            }
            if wordWidth > limit {
                for character in word {
                    if !current.isEmpty && width + columns(character) > limit {
                        lines.append(current)
                        (current, width) = ("", 0)
                    }
                    current.append(character)
                    width += columns(character)
                }
                continue
            }
            if !current.isEmpty { (current, width) = (current + " ", width + 1) }
            (current, width) = (current + word, width + wordWidth)
        }
        if !current.isEmpty || lines.isEmpty { lines.append(current) }
        return lines
    }

    /// Columns a character takes: two for East Asian wide ones (CJK, kana, Hangul, full-width forms), else one.
    private static func columns(_ character: Character) -> Int {
        let wide = character.unicodeScalars.contains { scalar in
            [
                0x1100...0x115F, 0x2E80...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60,
                0xFFE0...0xFFE6, 0x20000...0x3FFFD,
            ].contains { $0.contains(scalar.value) }
        }
        return wide ? 2 : 1
    }
}
