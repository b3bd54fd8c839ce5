/// Where a value sits inside a JSON document, written like `categories[2].actions[1].title`.
public struct JSONPath: Sendable, Hashable, CustomStringConvertible, Comparable {
    /// One step of a path: an object member or an array element.
    public enum Component: Sendable, Hashable {
        case key(String)
        case index(Int)
    }

    /// The steps from the document's root.
    public var components: [Component]

    /// The document's root.
    public static let root = JSONPath(components: [])

    /// A path made of `components`, from the root.
    public init(components: [Component]) {
        self.components = components
    }

    /// This path extended by an object member.
    public func appending(_ key: String) -> JSONPath {
        JSONPath(components: components + [.key(key)])
    }

    /// This path extended by an array element.
    public func appending(_ index: Int) -> JSONPath {
        JSONPath(components: components + [.index(index)])
    }

    /// The path without its last step (the root stays the root).
    public var parent: JSONPath {
        JSONPath(components: Array(components.dropLast()))
    }

    /// The path as people write it: `categories[2].actions[1].title`; `(root)` for the root; keys that are not
    /// plain identifiers are quoted in brackets, `aps["thread-id"]` style.
    public var description: String {
        if components.isEmpty { return "(root)" }
        var text = ""
        for component in components {
            switch component {
            case .index(let index):
                text += "[\(index)]"
            case .key(let key) where Self.isPlainKey(key):
                text += text.isEmpty ? key : ".\(key)"
            case .key(let key):
                var writer = JSONWriter()
                writer.write(key)
                text += "[\(String(decoding: writer.bytes, as: UTF8.self))]"
            }
        }
        return text
    }

    /// Orders paths by their written form, so diagnostics list in a stable order.
    public static func < (lhs: JSONPath, rhs: JSONPath) -> Bool {
        lhs.description < rhs.description
    }

    /// Keys made only of ASCII letters, digits, `_` and `-` (not first) are written bare.
    private static func isPlainKey(_ key: String) -> Bool {
        guard let first = key.utf8.first, first != UInt8(ascii: "-"), !(48...57).contains(first) else { return false }
        return key.utf8.allSatisfy { byte in
            (65...90).contains(byte) || (97...122).contains(byte) || (48...57).contains(byte)
                || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
        }
    }
}
