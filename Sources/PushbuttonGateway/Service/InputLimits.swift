import Pushbutton

/// The bounds the intake puts on what clients send, above all with the publishable key every app embeds: a
/// hostile body is refused with a `422` of bounded size before its elements are read one by one. The numbers
/// are in "Run the gateway".
enum InputLimits {
    /// Diagnostics one answer carries at most; the rest are counted in a last one.
    static let diagnosticsPerAnswer = 100
    /// Tags one registration may give (as the tag route takes per change).
    static let tagsPerDevice = 100
    /// A tag, in UTF-8 bytes.
    static let tagBytes = 200
    /// A registration's `locale` (a BCP 47 tag is at most 35 characters in practice).
    static let localeBytes = 35
    /// A registration's `app_version`.
    static let appVersionBytes = 64
    /// A registration's `user_id`, and a `user` a notification or a campaign line names.
    static let userIDBytes = 256
    /// APNs' limit for `apns-collapse-id`.
    static let collapseIDBytes = 64

    /// At most ``diagnosticsPerAnswer`` of `diagnostics`, and when there were more, a last one saying how many.
    static func capped(_ diagnostics: [Diagnostic]) -> [Diagnostic] {
        guard diagnostics.count > diagnosticsPerAnswer else { return diagnostics }
        let more = diagnostics.count - diagnosticsPerAnswer
        return Array(diagnostics.prefix(diagnosticsPerAnswer)) + [
            Diagnostic(
                .error, "more-diagnostics", at: .root, "\(more) more diagnostic(s) not shown",
                hint: "fix the ones shown and send the request again")
        ]
    }

    /// A string the gateway stores, checked: a NUL refused (PostgreSQL ends a text at it, so `alice\0x` would
    /// be stored and matched as `alice`), and more than `maximumBytes` UTF-8 bytes refused.
    static func check(
        _ text: String, _ name: String, at path: JSONPath, maximumBytes: Int, diagnostics: inout [Diagnostic]
    ) {
        if text.utf8.count > maximumBytes {
            diagnostics.append(
                Diagnostic(
                    .error, .valueRange, at: path,
                    "'\(name)' is \(text.utf8.count) bytes, more than this gateway's limit of \(maximumBytes)"))
        }
        if text.utf8.contains(0) { diagnostics.append(nul(name, at: path)) }
    }

    /// A diagnostic for a NUL (U+0000) in the string at `path`.
    static func nul(_ name: String, at path: JSONPath) -> Diagnostic {
        Diagnostic(
            .error, .valueRange, at: path, "'\(name)' holds a NUL character (U+0000), which the store cannot keep",
            hint: "remove the \\u0000 from the string")
    }

    /// Diagnostics for every string and member name in `value` that holds a NUL, at most
    /// ``diagnosticsPerAnswer`` + 1 of them.
    static func nulStrings(in value: JSONValue, at path: JSONPath = .root, diagnostics: inout [Diagnostic]) {
        guard diagnostics.count <= diagnosticsPerAnswer else { return }
        switch value {
        case .string(let text):
            if text.utf8.contains(0) { diagnostics.append(nul(path.description, at: path)) }
        case .array(let elements):
            for (index, element) in elements.enumerated() {
                nulStrings(in: element, at: path.appending(index), diagnostics: &diagnostics)
            }
        case .object(let members):
            for (key, member) in members {
                if key.utf8.contains(0) { diagnostics.append(nul("a member name", at: path.appending(key))) }
                nulStrings(in: member, at: path.appending(key), diagnostics: &diagnostics)
            }
        default:
            break
        }
    }

    /// Whether `text` holds a control character (C0, DEL or C1): a header value such as `apns-collapse-id`
    /// cannot carry one.
    static func hasControlCharacter(_ text: String) -> Bool {
        text.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }
    }
}
