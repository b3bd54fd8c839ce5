/// Text from outside (identifiers from a manifest, a server's reason or debug data) made safe to print on
/// a terminal: control characters are shown as escapes (`\n`, `\u{1B}`) instead of moving the cursor,
/// starting an escape sequence or forging another line of output.
public enum TerminalText {
    /// `text` with every C0 control character (tab included), DEL and every C1 control character
    /// replaced by a visible escape. Text without any is returned as it is, without a copy.
    public static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: needsEscape) else { return text }
        var result = ""
        result.reserveCapacity(text.utf8.count + 8)
        for scalar in text.unicodeScalars {
            guard needsEscape(scalar) else {
                result.unicodeScalars.append(scalar)
                continue
            }
            switch scalar {
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            default: result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            }
        }
        return result
    }

    /// C0 controls, DEL and C1 controls (U+0080–U+009F, which some terminals act on as escape sequences).
    public static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }
}
