/// Markup (HTML, or SVG's XML) that escapes by default: interpolating a `String` into an `HTML` literal
/// escapes it, interpolating `HTML` inserts it as it is. A `String` cannot become `HTML` but through
/// ``init(escaping:)``, so a page that forgets to escape some text does not compile.
///
/// ```swift
/// let row: HTML = "<td>\(name)</td>"                 // name: String, escaped
/// let table: HTML = "<table>\(rows.joined())</table>" // rows: [HTML], inserted as they are
/// ```
package struct HTML: Sendable, Hashable, CustomStringConvertible, ExpressibleByStringInterpolation {
    /// The markup.
    package private(set) var text: String

    /// Markup written in the source: a literal is trusted as it is.
    package init(stringLiteral literal: String) { text = literal }

    /// Markup with interpolations: strings escaped, ``HTML`` inserted as it is.
    package init(stringInterpolation: Interpolation) { text = stringInterpolation.text }

    /// `text` escaped: the markup that shows it.
    package init(escaping text: String) { self.text = Self.escape(text) }

    /// The markup, as ``text``.
    package var description: String { text }

    /// Builds markup: literal parts as they are, `String` values escaped, `HTML` values as they are, numbers as
    /// their digits.
    package struct Interpolation: StringInterpolationProtocol {
        var text = ""

        package init(literalCapacity: Int, interpolationCount: Int) {
            text.reserveCapacity(literalCapacity + 16 * interpolationCount)
        }

        package mutating func appendLiteral(_ literal: String) { text += literal }

        /// Text: escaped.
        package mutating func appendInterpolation(_ text: String) { self.text += HTML.escape(text) }

        /// Markup: as it is.
        package mutating func appendInterpolation(_ html: HTML) { text += html.text }

        /// A whole number: its digits.
        package mutating func appendInterpolation<Number: BinaryInteger>(_ number: Number) { text += "\(number)" }

        /// A number: its shortest representation (escaped: it is text like any other).
        package mutating func appendInterpolation(_ number: Double) { text += HTML.escape("\(number)") }
    }

    /// Appends markup.
    package static func += (lhs: inout HTML, rhs: HTML) { lhs.text += rhs.text }

    /// Two pieces of markup, one after the other.
    package static func + (lhs: HTML, rhs: HTML) -> HTML {
        var joined = lhs
        joined += rhs
        return joined
    }

    /// Text for HTML and SVG (XML) content and attribute values. Characters XML 1.0 does not allow at all,
    /// not even as references (C0 controls other than tab, LF and CR; U+FFFE and U+FFFF), become U+FFFD,
    /// so an SVG stays well-formed whatever the text holds.
    package static func escape(_ text: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#39;"
            case "\t", "\n", "\r": escaped.unicodeScalars.append(scalar)
            case _ where scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF:
                escaped.unicodeScalars.append("\u{FFFD}")
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }
}

extension Sequence where Element == HTML {
    /// The pieces one after the other, `separator` between them.
    package func joined(separator: HTML = "") -> HTML {
        var result: HTML = ""
        for (index, piece) in enumerated() {
            if index > 0 { result += separator }
            result += piece
        }
        return result
    }
}
