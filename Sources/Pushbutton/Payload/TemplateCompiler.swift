import Foundation

/// Compiles a payload's JSON into ``PayloadTemplate`` segments, in exactly the byte order
/// ``PayloadWriter`` writes (sorted keys), so a template with no placeholder renders the same bytes.
struct TemplateCompiler {
    private(set) var segments: [PayloadTemplate.Segment] = []
    private(set) var urlChecks: [PayloadTemplate.URLCheck] = []
    private(set) var names: [String] = []
    private(set) var diagnostics: [Diagnostic] = []
    private var literal = JSONWriter()

    /// Finishes the pending literal and returns the segments.
    mutating func compile(_ value: JSONValue, at path: JSONPath) {
        write(value, at: path, builtin: nil)
        flush()
    }

    private mutating func flush() {
        guard !literal.bytes.isEmpty else { return }
        segments.append(.literal(literal.bytes))
        literal.reset()
    }

    private mutating func index(of name: String) -> Int {
        if let existing = names.firstIndex(of: name) { return existing }
        names.append(name)
        return names.count - 1
    }

    private mutating func write(_ value: JSONValue, at path: JSONPath, builtin: ActionSpec.Builtin?) {
        switch value {
        case .object(let members):
            // The built-in action of an action spec decides how its `args.url` is checked.
            let spec = Self.isSpec(path) ? members["action"]?.stringValue.map { ActionSpec($0).builtin } ?? nil : nil
            literal.writeRaw(UInt8(ascii: "{"))
            for (offset, (key, member)) in members.sorted(by: { $0.key < $1.key }).enumerated() {
                if offset > 0 { literal.writeRaw(UInt8(ascii: ",")) }
                if !Self.parts(of: key).allSatisfy({ if case .text = $0 { true } else { false } }) {
                    refuse(path.appending(key), "a key cannot hold a placeholder")
                }
                literal.write(key)
                literal.writeRaw(UInt8(ascii: ":"))
                write(member, at: path.appending(key), builtin: spec ?? builtin)
            }
            literal.writeRaw(UInt8(ascii: "}"))
        case .array(let elements):
            literal.writeRaw(UInt8(ascii: "["))
            for (offset, element) in elements.enumerated() {
                if offset > 0 { literal.writeRaw(UInt8(ascii: ",")) }
                write(element, at: path.appending(offset), builtin: builtin)
            }
            literal.writeRaw(UInt8(ascii: "]"))
        case .string(let text):
            writeString(text, at: path, builtin: builtin)
        default:
            literal.write(value)
        }
    }

    private mutating func writeString(_ text: String, at path: JSONPath, builtin: ActionSpec.Builtin?) {
        let parts = Self.parts(of: text)
        guard parts.contains(where: { if case .placeholder = $0 { true } else { false } }) else {
            literal.write(text)
            return
        }
        if Self.isFixed(path) {
            refuse(path, "this value is part of the payload's structure and cannot hold a placeholder")
            literal.write(text)
            return
        }
        let isURL = path.components.last == .key("url") && builtin != nil && builtin != .dismiss
        if parts.count == 1, case .placeholder(let name) = parts[0], !isURL {
            flush()
            segments.append(.whole(index(of: name), anyJSON: Self.isFreeForm(path)))
            return
        }
        literal.writeRaw(UInt8(ascii: "\""))
        flush()
        let start = segments.count
        for part in parts {
            switch part {
            case .text(let piece): literal.writeStringContents(piece)
            case .placeholder(let name):
                flush()
                segments.append(.inline(index(of: name)))
            }
        }
        flush()
        if isURL, !Self.hasFixedAuthority(parts) {
            urlChecks.append(
                PayloadTemplate.URLCheck(
                    segments: start..<segments.count, path: path,
                    needsWeb: builtin == .openURL || builtin == .callback || builtin == .share,
                    needsHost: builtin == .callback))
        }
        literal.writeRaw(UInt8(ascii: "\""))
    }

    private mutating func refuse(_ path: JSONPath, _ message: String) {
        diagnostics.append(
            Diagnostic(
                .error, .typeMismatch, at: path, message,
                hint: "keep categories, buttons and action names fixed; personalize texts and arguments"))
    }

    /// A URL whose text before the first placeholder already holds `scheme://host/`: no value can change
    /// its scheme or host, so the template's validation holds for every render.
    private static func hasFixedAuthority(_ parts: [Part]) -> Bool {
        guard case .text(let prefix) = parts.first, let separator = prefix.range(of: "://") else { return false }
        let afterScheme = prefix[separator.upperBound...]
        guard let slash = afterScheme.firstIndex(of: "/") else { return false }
        return slash > afterScheme.startIndex
    }

    /// Paths whose values fix the payload's structure.
    private static func isFixed(_ path: JSONPath) -> Bool {
        let keys = path.components.compactMap { if case .key(let key) = $0 { key } else { nil } }
        if keys == ["aps", "category"] || keys == ["aps", "interruption-level"] { return true }
        guard keys.first == Payload.actionsKey else { return false }
        return path.components.last == .key("action") && isSpec(Array(path.components.dropLast()))
            || keys.contains("define") || keys == [Payload.actionsKey, "v"]
    }

    /// Whether `path` is an action spec: `pushbutton.buttons.X[i]`, `pushbutton.body[i]`, `pushbutton.dismiss[i]`,
    /// or an action of a `pushbutton.group` in one (`….args.actions[j]`, at any depth).
    private static func isSpec(_ path: JSONPath) -> Bool { isSpec(path.components) }

    private static func isSpec(_ components: [JSONPath.Component]) -> Bool {
        guard components.first == .key(Payload.actionsKey), case .index = components.last else { return false }
        if components.count > 3, components[components.count - 2] == .key("actions"),
            components[components.count - 3] == .key("args")
        {
            return isSpec(Array(components.dropLast(3)))
        }
        return components.count == 4 && components[1] == .key("buttons")
            || components.count == 3 && (components[1] == .key("body") || components[1] == .key("dismiss"))
    }

    /// Positions of free-form JSON, where a whole-value placeholder may take any JSON value.
    private static func isFreeForm(_ path: JSONPath) -> Bool {
        guard case .key(let first)? = path.components.first else { return false }
        if first == Payload.actionArgumentsKey { return true }
        if first == Payload.actionsKey { return path.components.contains(.key("args")) }
        return first != "aps"
    }

    enum Part: Equatable {
        case text(String)
        case placeholder(String)
    }

    /// Splits text at `{{name}}` placeholders (a name is a letter or `_`, then letters, digits, `_`, `-`, `.`).
    /// Braces that do not form a placeholder stay text.
    static func parts(of text: String) -> [Part] {
        guard text.contains("{{") else { return [.text(text)] }
        var parts: [Part] = []
        var pending = ""
        var rest = Substring(text)
        while let open = rest.range(of: "{{") {
            pending += rest[..<open.lowerBound]
            let afterOpen = rest[open.upperBound...]
            if let close = afterOpen.range(of: "}}"), isName(afterOpen[..<close.lowerBound]) {
                if !pending.isEmpty { parts.append(.text(pending)) }
                pending = ""
                parts.append(.placeholder(String(afterOpen[..<close.lowerBound])))
                rest = afterOpen[close.upperBound...]
            } else {
                pending += "{{"
                rest = afterOpen
            }
        }
        pending += rest
        if !pending.isEmpty { parts.append(.text(pending)) }
        return parts
    }

    private static func isName(_ text: Substring) -> Bool {
        guard let first = text.unicodeScalars.first, first.properties.isAlphabetic || first == "_", first.isASCII else {
            return false
        }
        return text.unicodeScalars.allSatisfy {
            $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "_-.".unicodeScalars.contains($0))
        }
    }
}
