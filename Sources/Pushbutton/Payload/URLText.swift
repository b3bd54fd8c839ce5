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
        guard !bytes.isEmpty, isLetter(bytes[0]) else { return (nil, .none) }
        // The scheme's characters, up to the first other byte, which must be the colon.
        var colon = 1
        while colon < bytes.count, isSchemeCharacter(bytes[colon]) { colon += 1 }
        guard colon < bytes.count, bytes[colon] == UInt8(ascii: ":") else { return (nil, .none) }
        let schemeBytes = UnsafeBufferPointer(rebasing: bytes[..<colon])
        let scheme: Scheme =
            equalsIgnoringCase(schemeBytes, "https") ? .https : equalsIgnoringCase(schemeBytes, "http") ? .http : .other
        // The authority follows "//" and ends at the path, query or fragment; one pass finds its end, the last
        // `@` (the host follows the user information) and the first `:` after it (the port).
        var start = colon + 1
        guard start + 1 < bytes.count, bytes[start] == 0x2F, bytes[start + 1] == 0x2F else { return (scheme, .none) }
        start += 2
        var end = start
        var portColon: Int? = nil
        while end < bytes.count {
            let byte = bytes[end]
            if byte == 0x2F || byte == 0x3F || byte == 0x23 { break }
            if byte == 0x40 {
                start = end + 1
                portColon = nil
            } else if byte == 0x3A && portColon == nil {
                portColon = end
            }
            end += 1
        }
        if start < end, bytes[start] == 0x5B {  // [IPv6]
            start += 1
            end = (start..<end).first { bytes[$0] == 0x5D } ?? end
        } else if let portColon {
            end = portColon
        }
        guard start < end else { return (scheme, .none) }
        let host = UnsafeBufferPointer(rebasing: bytes[start..<end])
        let loopback =
            equalsIgnoringCase(host, "localhost") || equalsIgnoringCase(host, "127.0.0.1")
            || equalsIgnoringCase(host, "::1")
        return (scheme, loopback ? .loopback : .other)
    }

    /// A letter, digit, `+`, `-` or `.`: what follows a scheme's first letter.
    private static func isSchemeCharacter(_ byte: UInt8) -> Bool {
        isLetter(byte) || (byte >= 48 && byte <= 57) || byte == 43 || byte == 45 || byte == 46
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
