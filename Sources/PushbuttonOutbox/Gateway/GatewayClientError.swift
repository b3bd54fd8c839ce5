/// Why the gateway client could not queue a registration or a tap.
public enum GatewayClientError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The device token is not hexadecimal bytes.
    case invalidToken(String)
    /// A tap came before any device token was registered, so it cannot say which device it is from.
    case notRegistered
    /// The registration state file could not be read or written.
    case state(path: String, message: String)
    /// The outbox refused the request.
    case outbox(OutboxError)

    /// What went wrong, in a sentence.
    public var description: String {
        switch self {
        case .invalidToken(let why): "the device token is not valid: \(why)"
        case .notRegistered:
            "no device token is registered yet: call register(deviceToken:…) from didRegisterForRemoteNotifications first"
        case .state(let path, let message): "the gateway registration state \(path): \(message)"
        case .outbox(let error): "the outbox: \(error)"
        }
    }
}
