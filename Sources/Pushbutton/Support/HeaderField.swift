/// What may go into an HTTP header, checked wherever a header is built from outside input (flags, NDJSON
/// lines, payloads): a CR or LF there could end the header and smuggle another one into an HTTP/1.1
/// request, and HTTP/2 forbids them (RFC 9113 §8.2.1), so transports would drop or mangle them silently.
public enum HeaderField {
    /// Whether `value` is a header value that every transport sends as it is: no control characters
    /// (U+0000–U+001F other than tab, and U+007F), and no spaces or tabs at either end.
    public static func isValidValue(_ value: String) -> Bool {
        let bytes = value.utf8
        if let first = bytes.first, first == 0x20 || first == 0x09 { return false }
        if let last = bytes.last, last == 0x20 || last == 0x09 { return false }
        return bytes.allSatisfy { $0 == 0x09 || ($0 >= 0x20 && $0 != 0x7F) }
    }

    /// Whether `name` is an HTTP token (RFC 9110 §5.6.2): visible ASCII without separators.
    public static func isValidName(_ name: String) -> Bool {
        !name.isEmpty
            && name.utf8.allSatisfy { byte in
                (0x21...0x7E).contains(byte) && !"\"(),/:;<=>?@[\\]{}".utf8.contains(byte)
            }
    }

    /// Why `value` cannot be the `name` header, or `nil` when it can: for one-line errors.
    public static func problem(name: String, value: String) -> String? {
        guard !isValidValue(value) else { return nil }
        let control = value.unicodeScalars.first { $0.value < 0x20 && $0 != "\t" || $0.value == 0x7F }
        let what =
            control.map { "a control character (U+\(String($0.value, radix: 16, uppercase: true).leftPadded(to: 4)))" }
            ?? "spaces at an end"
        return "the \(name) header value holds \(what), which cannot be sent in an HTTP header"
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
