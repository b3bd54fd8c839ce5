/// How a payload's size compares with APNs' limit, and what takes the room.
public struct PayloadSizeReport: Sendable, Hashable, CustomStringConvertible {
    /// One field and the bytes it takes in the encoded payload (key included).
    public struct Field: Sendable, Hashable {
        /// Where the field sits in the payload, e.g. `aps.alert.body`.
        public var path: JSONPath
        /// The bytes it takes, key and separators included.
        public var bytes: Int
    }

    /// The encoded size in bytes.
    public var size: Int
    /// APNs' limit for the push type.
    public var limit: Int
    /// The largest fields, largest first (at most five).
    public var largestFields: [Field]

    /// Whether APNs accepts the size (at most ``limit`` bytes; a larger payload gets 413 `PayloadTooLarge`).
    public var fits: Bool { size <= limit }
    /// How many bytes must go (0 when it fits).
    public var overBy: Int { max(0, size - limit) }

    /// `"N of L bytes"` or `"N bytes, K over the L-byte limit"`, followed by the largest fields.
    public var description: String {
        let fields = largestFields.map { "\($0.path) (\($0.bytes) bytes)" }.joined(separator: ", ")
        if fits { return "\(size) of \(limit) bytes; largest: \(fields)" }
        return "\(size) bytes, \(overBy) over the \(limit)-byte limit; largest: \(fields)"
    }
}

extension Payload {
    /// The encoded size against the limit of `pushType`, with the largest fields.
    public func sizeReport(pushType: PushType = .alert) -> PayloadSizeReport {
        let size = PayloadWriter.encode(self).count
        var fields: [PayloadSizeReport.Field] = []
        func measure(_ value: JSONValue, at path: JSONPath, descend: Bool) {
            guard descend, case .object(let members) = value else {
                let key = path.components.last.map { "\($0)" } ?? ""
                fields.append(.init(path: path, bytes: JSONWriter.compact(value).count + key.utf8.count + 3))
                return
            }
            for (key, member) in members {
                let inside = path.appending(key)
                measure(
                    member, at: inside,
                    descend: inside == .root.appending("aps") || inside == .root.appending("aps").appending("alert"))
            }
        }
        measure(jsonValue, at: .root, descend: true)
        fields.sort { $0.bytes != $1.bytes ? $0.bytes > $1.bytes : $0.path < $1.path }
        return PayloadSizeReport(size: size, limit: pushType.maximumPayloadSize, largestFields: Array(fields.prefix(5)))
    }

    /// This payload with the alert body shortened, at a character boundary, so the whole payload fits
    /// in `limit` bytes, ending with `ellipsis`. Returns `self` when it already fits and `nil` when
    /// even an empty body would not fit (or there is no body to shorten). Never splits a character.
    public func truncatingAlertBody(toFit limit: Int, ellipsis: String = "…") -> Payload? {
        let size = PayloadWriter.encode(self).count
        if size <= limit { return self }
        guard let body = aps.alert?.body else { return nil }
        let needed = size - limit + Self.escapedSize(ellipsis)
        var removed = 0
        var end = body.endIndex
        while removed < needed {
            guard end > body.startIndex else { return nil }
            let previous = body.index(before: end)
            removed += Self.escapedSize(String(body[previous..<end]))
            end = previous
        }
        var shortened = self
        let newBody = String(body[..<end]) + ellipsis
        switch aps.alert {
        case .text?: shortened.aps.alert = .text(newBody)
        case .content(var content)?:
            content.body = newBody
            shortened.aps.alert = .content(content)
        case nil: return nil
        }
        return PayloadWriter.encode(shortened).count <= limit ? shortened : nil
    }

    /// The bytes `text` takes inside a JSON string.
    static func escapedSize(_ text: String) -> Int {
        var size = 0
        for byte in text.utf8 {
            switch byte {
            case 0x22, 0x5C, 0x08, 0x0C, 0x0A, 0x0D, 0x09: size += 2
            case 0..<0x20: size += 6
            default: size += 1
            }
        }
        return size
    }
}
