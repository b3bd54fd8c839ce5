/// A device token: hex, validated, and redacted wherever it is printed.
public struct DeviceToken: Sendable, Hashable, CustomStringConvertible {
    /// The token in lowercase hex, as the request path needs it.
    public let hex: String

    /// Accepts hex of at least 64 digits and an even length (APNs tokens are 32 bytes today; longer ones
    /// are allowed for the future). Spaces and angle brackets, as older APIs printed tokens, are removed.
    public init(_ text: String) throws(APNsError) {
        let cleaned = text.filter { $0 != " " && $0 != "<" && $0 != ">" }.lowercased()
        guard cleaned.count >= 64, cleaned.count % 2 == 0, cleaned.allSatisfy(\.isHexDigit) else {
            throw APNsError(
                .invalidDeviceToken,
                "a device token must be at least 64 hexadecimal digits, got \(DeviceToken.redact(cleaned))")
        }
        hex = cleaned
    }

    /// `a1b2c3…(64 hex)`: enough to tell tokens apart in a log, not enough to send to the device.
    public var description: String { Self.redact(hex) }

    package static func redact(_ text: String) -> String {
        text.count <= 6 ? "…(\(text.count) chars)" : "\(text.prefix(6))…(\(text.count) chars)"
    }
}
