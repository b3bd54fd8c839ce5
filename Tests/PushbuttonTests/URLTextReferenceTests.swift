import Testing

@testable import Pushbutton

/// `URLText` reads a URL in one pass over its authority; these compare it with a plain reading of RFC 3986's
/// shape (find the colon, then the authority's end, then its last `@`, then the port's colon) on every string
/// of up to four pieces made from the bytes that matter.
@Suite struct URLTextReferenceTests {
    /// The scheme and host as the plain reading finds them, on the string's characters.
    static func reference(_ text: String) -> (URLText.Scheme?, URLText.Host) {
        let bytes = Array(text.utf8)
        func isLetter(_ byte: UInt8) -> Bool { (65...90).contains(byte) || (97...122).contains(byte) }
        guard let colon = bytes.firstIndex(of: 58), colon > 0, isLetter(bytes[0]) else { return (nil, .none) }
        for byte in bytes[1..<colon] where !(isLetter(byte) || (48...57).contains(byte) || [43, 45, 46].contains(byte))
        {
            return (nil, .none)
        }
        let name = String(decoding: bytes[..<colon], as: UTF8.self).lowercased()
        let scheme: URLText.Scheme = name == "https" ? .https : name == "http" ? .http : .other
        guard bytes.count > colon + 2, bytes[colon + 1] == 47, bytes[colon + 2] == 47 else { return (scheme, .none) }
        let authority = bytes[(colon + 3)...].prefix { ![47, 63, 35].contains($0) }
        var host = authority.lastIndex(of: 64).map { authority[($0 + 1)...] } ?? authority[...]
        if host.first == 91 {
            host = host.dropFirst().prefix { $0 != 93 }
        } else if let port = host.firstIndex(of: 58) {
            host = host[..<port]
        }
        guard !host.isEmpty else { return (scheme, .none) }
        let lowered = String(decoding: host, as: UTF8.self).lowercased()
        return (scheme, ["localhost", "127.0.0.1", "::1"].contains(lowered) ? .loopback : .other)
    }

    @Test func everyShapeOfUpToFourPiecesReadsAsThePlainReadingReadsIt() {
        let pieces = [
            "h", "https", "HTTP", "x1", ":", "//", "/", "@", "[", "]", "::1", "localhost", "127.0.0.1", "?", "#", " ",
        ]
        var texts = [""]
        var shorter = [""]
        for _ in 1...4 {
            shorter = shorter.flatMap { prefix in pieces.map { prefix + $0 } }
            texts += shorter
        }
        var differing: [String] = []
        for text in texts {
            let url = URLText(text)
            let expected = Self.reference(text)
            if url.scheme != expected.0 || url.host != expected.1 { differing.append(text) }
        }
        #expect(texts.count == 69_905)
        #expect(differing.isEmpty, "\(differing.prefix(10))")
    }
}
