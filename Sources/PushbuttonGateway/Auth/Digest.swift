internal import COpenSSL
import Foundation

/// SHA-256 and HMAC-SHA-256 from OpenSSL, and a comparison whose time does not depend on where bytes differ.
enum Digest {
    static func sha256(_ bytes: some Collection<UInt8>) -> [UInt8] {
        let input = Array(bytes)
        var output = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 0
        _ = input.withUnsafeBytes { buffer in
            EVP_Digest(buffer.baseAddress, buffer.count, &output, &length, EVP_sha256(), nil)
        }
        return output
    }

    static func hmacSHA256(key: [UInt8], _ message: [UInt8]) -> [UInt8] {
        var output = [UInt8](repeating: 0, count: 32)
        var length = 0
        _ = key.withUnsafeBytes { keyBuffer in
            message.withUnsafeBytes { messageBuffer in
                EVP_Q_mac(
                    nil, "HMAC", nil, "SHA256", nil, keyBuffer.baseAddress, keyBuffer.count, messageBuffer.baseAddress,
                    messageBuffer.count, &output, output.count, &length)
            }
        }
        return output
    }

    /// Whether two digests are equal, looking at every byte whatever the first difference.
    static func constantTimeEqual(_ lhs: [UInt8], _ rhs: [UInt8]) -> Bool {
        guard lhs.count == rhs.count else { return false }
        var difference: UInt8 = 0
        for index in lhs.indices { difference |= lhs[index] ^ rhs[index] }
        return difference == 0
    }

    static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text = [UInt8]()
        text.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
