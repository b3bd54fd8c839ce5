import Testing

@testable import Pushbutton

/// `JSONByteBuffer` writes strings by copying them whole and testing words (one or two overlapping words up to
/// 16 bytes, a loop beyond): every length, with a byte to escape at every offset, against ``JSONWriter``.
@Suite struct JSONByteBufferStringTests {
    static let specials: [String] =
        (0..<0x20).map { String(Character(Unicode.Scalar(UInt8($0)))) } + ["\"", "\\", "é", "🎉", "/", "\u{7F}"]

    static func written(_ strings: [String], into buffer: inout JSONByteBuffer) -> [UInt8] {
        buffer.reset()
        for string in strings { buffer.write(string) }
        return buffer.bytes
    }

    @Test func stringsOfEveryLengthWithoutEscapesAreCopiedExactly() {
        var buffer = JSONByteBuffer(capacity: 16)
        for length in 0...40 {
            let text = String((0..<length).map { Character(Unicode.Scalar(UInt8(65 + $0 % 26))) })
            #expect(Self.written([text], into: &buffer) == JSONWriter.compact(.string(text)), "length \(length)")
        }
    }

    @Test func aByteToEscapeAtEveryOffsetOfEveryLengthIsEscapedExactly() {
        var buffer = JSONByteBuffer(capacity: 16)
        for special in Self.specials {
            for length in 1...34 {
                for offset in 0..<length {
                    let text =
                        String(repeating: "a", count: offset) + special
                        + String(repeating: "b", count: length - offset - 1)
                    #expect(
                        Self.written([text], into: &buffer) == JSONWriter.compact(.string(text)),
                        "\(special.unicodeScalars.first!.value) at \(offset) of \(length)")
                }
            }
        }
    }

    @Test func bytesLeftInTheBufferByEarlierWritesDoNotChangeWhatIsWritten() {
        // The word test reads past a short string's end, into what earlier payloads left there.
        var buffer = JSONByteBuffer(capacity: 64)
        let noisy = String(repeating: "\"\u{1}\\\n", count: 16)
        _ = Self.written([noisy], into: &buffer)
        for length in 0...16 {
            let text = String(repeating: "x", count: length)
            let expected = JSONWriter.compact(.string(text)) + JSONWriter.compact(.string(noisy))
            #expect(Self.written([text, noisy], into: &buffer) == expected, "length \(length)")
        }
    }
}
