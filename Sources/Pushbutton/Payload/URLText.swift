/// Just enough URL parsing for payload validation, over the string's UTF-8 bytes without allocating:
/// Foundation's `URL` costs more than the rest of validating a payload, which runs once per notification.
struct URLText {
    /// What a URL's scheme is, as far as validation cares.
    enum Scheme: Equatable {
        case http
        case https
        case other
    }

    /// What a URL's authority names.
    enum Host: Equatable {
        case none
        case loopback
        case other
    }

    /// The scheme (RFC 3986: a letter, then letters, digits, `+`, `-`, `.`, then `:`), `nil` when there is none.
    let scheme: Scheme?
    /// The host of `scheme://[user@]host[:port]/…`.
    let host: Host

    init(_ text: String) {
        var text = text
        (scheme, host) = text.withUTF8 { Self.inspect($0) }
    }

    private static func inspect(_ bytes: UnsafeBufferPointer<UInt8>) -> (Scheme?, Host) {
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")), colon > 0, isLetter(bytes[0]) else {
            return (nil, .none)
        }
        for index in 1..<colon {
            let byte = bytes[index]
            guard isLetter(byte) || (byte >= 48 && byte <= 57) || byte == 43 || byte == 45 || byte == 46 else {
                return (nil, .none)
            }
        }
        let schemeBytes = UnsafeBufferPointer(rebasing: bytes[..<colon])
        let scheme: Scheme =
            equalsIgnoringCase(schemeBytes, "https") ? .https : equalsIgnoringCase(schemeBytes, "http") ? .http : .other
        // The authority follows "//" and ends at the path, query or fragment.
        var start = colon + 1
        guard start + 1 < bytes.count, bytes[start] == 0x2F, bytes[start + 1] == 0x2F else { return (scheme, .none) }
        start += 2
        var end = start
        while end < bytes.count, bytes[end] != 0x2F, bytes[end] != 0x3F, bytes[end] != 0x23 { end += 1 }
        if let at = (start..<end).last(where: { bytes[$0] == 0x40 }) { start = at + 1 }
        if start < end, bytes[start] == 0x5B {  // [IPv6]
            start += 1
            end = (start..<end).first { bytes[$0] == 0x5D } ?? end
        } else if let portColon = (start..<end).first(where: { bytes[$0] == 0x3A }) {
            end = portColon
        }
        guard start < end else { return (scheme, .none) }
        let host = UnsafeBufferPointer(rebasing: bytes[start..<end])
        let loopback =
            equalsIgnoringCase(host, "localhost") || equalsIgnoringCase(host, "127.0.0.1")
            || equalsIgnoringCase(host, "::1")
        return (scheme, loopback ? .loopback : .other)
    }

    /// Whether `bytes` equal the lowercase ASCII `expected`, ignoring the case of letters.
    static func equalsIgnoringCase(_ bytes: UnsafeBufferPointer<UInt8>, _ expected: StaticString) -> Bool {
        expected.withUTF8Buffer { expected in
            guard bytes.count == expected.count else { return false }
            for index in 0..<bytes.count {
                let byte = bytes[index]
                let folded = byte >= 65 && byte <= 90 ? byte | 0x20 : byte
                if folded != expected[index] { return false }
            }
            return true
        }
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (byte >= 65 && byte <= 90) || (byte >= 97 && byte <= 122)
    }
}
