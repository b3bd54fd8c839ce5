/// The webhook's `X-Pushbutton-Signature` header, for receivers written in Swift.
public enum WebhookSignature {
    /// `sha256=` and the hex HMAC-SHA-256 of `body` with `secret`.
    public static func header(secret: String, body: [UInt8]) -> String {
        SigningSender.signature(secret: Array(secret.utf8), body: body)
    }

    /// Whether `header` signs `body` with `secret`, compared in constant time.
    public static func verify(_ header: String, secret: String, body: [UInt8]) -> Bool {
        Digest.constantTimeEqual(Array(self.header(secret: secret, body: body).utf8), Array(header.utf8))
    }
}
