/// A device token: hex, validated, and redacted wherever it is printed.
public struct DeviceToken: Sendable, Hashable, CustomStringConvertible {
    /// The token in lowercase hex, as the request path needs it.
    public let hex: String

    /// The most hexadecimal digits a token may have: 100 bytes. APNs tokens are 32 bytes today; longer
    /// ones are allowed for the future, but not without limit (the token becomes the request path).
    public static let maximumDigits = 200

    /// Accepts hex of 64 to ``maximumDigits`` digits and an even length. Spaces and angle brackets, as
    /// older APIs printed tokens, are removed.
    public init(_ text: String) throws(APNsError) {
        guard text.utf8.count <= 4 * Self.maximumDigits else {  // not even cleaned: refused before any copy
            throw APNsError(
                .invalidDeviceToken,
                "a device token has at most \(Self.maximumDigits) hexadecimal digits, got \(text.utf8.count) characters"
            )
        }
        let (cleaned, checked) = Self.clean(text)
        guard (64...Self.maximumDigits).contains(cleaned.utf8.count), cleaned.utf8.count % 2 == 0,
            checked || cleaned.utf8.allSatisfy(Self.isHexDigit)
        else {
            throw APNsError(
                .invalidDeviceToken,
                "a device token must be 64 to \(Self.maximumDigits) hexadecimal digits (an even number), got "
                    + DeviceToken.redact(cleaned))
        }
        hex = cleaned
    }

    /// Calls `body` with the hex digits as UTF-8, read in place (a request's path is written from them).
    package func withUTF8<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        if let result = hex.utf8.withContiguousStorageIfAvailable(body) { return result }
        var copy = hex
        return copy.withUTF8(body)
    }

    /// Lowercase, without the spaces and angle brackets; byte by byte, as bulk sends check every token.
    /// `checked`: the text was lowercase hex already (the common case), so it need not be checked again.
    private static func clean(_ text: String) -> (text: String, checked: Bool) {
        if isLowercaseHex(text) { return (text, true) }
        let cleaned = String(
            decoding: text.utf8.compactMap { byte -> UInt8? in
                if byte == 0x20 || byte == 0x3C || byte == 0x3E { return nil }
                return (0x41...0x46).contains(byte) ? byte + 0x20 : byte
            }, as: UTF8.self)
        return (cleaned, false)
    }

    /// Whether `text` is lowercase hex only; over the string's bytes at once where it has them in one piece
    /// (String's generic UTF-8 view costs several times more per token).
    private static func isLowercaseHex(_ text: String) -> Bool {
        let isLowercaseHexDigit = { (byte: UInt8) in (0x30...0x39).contains(byte) || (0x61...0x66).contains(byte) }
        if let checked = text.utf8.withContiguousStorageIfAvailable({ bytes -> Bool in
            var valid = true
            for byte in bytes { valid = valid && isLowercaseHexDigit(byte) }
            return valid
        }) {
            return checked
        }
        return text.utf8.allSatisfy(isLowercaseHexDigit)
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x61...0x66).contains(byte) || (0x41...0x46).contains(byte)
    }

    /// `a1b2c3…(64 hex)`: enough to tell tokens apart in a log, not enough to send to the device.
    public var description: String { Self.redact(hex) }

    package static func redact(_ text: String) -> String {
        text.count <= 6 ? "…(\(text.count) chars)" : "\(text.prefix(6))…(\(text.count) chars)"
    }
}
