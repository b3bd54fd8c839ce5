import Foundation

/// UUIDs as `apns-id` text, without Foundation's `sprintf`/`sscanf` round trips: on the sending and
/// answering hot paths these cost more than the HTTP/2 framing around them.
package enum UUIDText {
    /// `xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx` in lowercase.
    package static func lowercase(_ uuid: UUID) -> String {
        String(unsafeUninitializedCapacity: 36) { write(uuid, to: $0) }
    }

    /// Writes the lowercase text into `output` (at least 36 bytes, as a request header is built in
    /// place); returns 36.
    package static func write(_ uuid: UUID, to output: UnsafeMutableBufferPointer<UInt8>) -> Int {
        withUnsafeBytes(of: uuid.uuid) { bytes in
            var position = 0
            for (index, byte) in bytes.enumerated() {
                if index == 4 || index == 6 || index == 8 || index == 10 {
                    output[position] = 0x2D
                    position += 1
                }
                output[position] = hexDigit(byte >> 4)
                output[position + 1] = hexDigit(byte & 0x0F)
                position += 2
            }
            return 36
        }
    }

    /// A nibble's lowercase hex digit, computed: a table in a global costs a lazy-initialization check and a
    /// retain per lookup, and this runs 32 times per request and per result line.
    @inline(__always)
    private static func hexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? 0x30 + nibble : 0x57 + nibble
    }

    /// Reads the canonical form (either case); nil for anything else.
    package static func parse(_ text: String) -> UUID? {
        var text = text
        return text.withUTF8 { bytes -> UUID? in
            guard bytes.count == 36 else { return nil }
            var value: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
            let parsed = withUnsafeMutableBytes(of: &value) { output -> Bool in
                var position = 0
                for index in 0..<16 {
                    if index == 4 || index == 6 || index == 8 || index == 10 {
                        guard bytes[position] == 0x2D else { return false }
                        position += 1
                    }
                    guard let high = nibble(bytes[position]), let low = nibble(bytes[position + 1]) else {
                        return false
                    }
                    output[index] = high << 4 | low
                    position += 2
                }
                return true
            }
            return parsed ? UUID(uuid: value) : nil
        }
    }

    private static func nibble(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x30...0x39: return byte - 0x30
        case 0x61...0x66: return byte - 0x61 + 10
        case 0x41...0x46: return byte - 0x41 + 10
        default: return nil
        }
    }
}
