import Foundation

/// Reads the canonical text of a UUID (`8-4-4-4-12` hex digits, as the gateway stores apns-ids) byte by
/// byte: `UUID(uuidString:)` goes through `sscanf`, which the workers' profile showed for every recipient.
enum StoredUUID {
    /// The UUID, or `nil` when `text` is not 36 characters of hex digits and dashes in the canonical places.
    static func parse(_ text: String) -> UUID? {
        var text = text
        return text.withUTF8 { bytes -> UUID? in
            guard bytes.count == 36 else { return nil }
            var value: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
            let parsed = withUnsafeMutableBytes(of: &value) { out -> Bool in
                var index = 0
                for byte in 0..<16 {
                    if index == 8 || index == 13 || index == 18 || index == 23 {
                        guard bytes[index] == UInt8(ascii: "-") else { return false }
                        index += 1
                    }
                    guard let high = digit(bytes[index]), let low = digit(bytes[index + 1]) else { return false }
                    out[byte] = high << 4 | low
                    index += 2
                }
                return true
            }
            return parsed ? UUID(uuid: value) : nil
        }
    }

    private static func digit(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
