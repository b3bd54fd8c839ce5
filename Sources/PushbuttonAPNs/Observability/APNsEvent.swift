import Foundation
import Pushbutton

/// Something the sender did, for metrics and logs: what an ``APNsObserver`` receives.
///
/// Events carry no secrets: device tokens are ``DeviceToken`` values, whose `description` shows only
/// their first characters, and no event holds a provider token or a key. ``description`` is a log line
/// built from that redacted form.
public enum APNsEvent: Sendable, CustomStringConvertible {
    /// What a request other than a device notification was for.
    public enum RequestKind: String, Sendable, Hashable {
        /// A channel management request (create, read, list, delete).
        case channelManagement = "channel"
        /// A broadcast to a channel.
        case broadcast
    }

    /// How important an event is to someone reading a log.
    public enum Level: Int, Sendable, Hashable, Comparable, CustomStringConvertible {
        case debug, info, warning, error
        /// Whether `lhs` is less important than `rhs`.
        public static func < (lhs: Level, rhs: Level) -> Bool { lhs.rawValue < rhs.rawValue }
        /// The level's name: `debug`, `info`, `warning` or `error`.
        public var description: String {
            switch self {
            case .debug: return "debug"
            case .info: return "info"
            case .warning: return "warning"
            case .error: return "error"
            }
        }
    }

    /// An attempt (1 for the first) of a notification went to the transport.
    case sent(apnsID: UUID, deviceToken: DeviceToken, attempt: Int)
    /// APNs accepted the notification, `latency` after it was handed to the client (retries included).
    case delivered(apnsID: UUID, deviceToken: DeviceToken, attempts: Int, latency: Duration)
    /// APNs refused the notification for good.
    case rejected(apnsID: UUID, deviceToken: DeviceToken, status: Int, reason: APNsReason, latency: Duration)
    /// The notification ended without an answer to go by (retries ran out, shut down, cancelled, invalid).
    case failed(apnsID: UUID, deviceToken: DeviceToken, cause: APNsError.Kind, attempts: Int, latency: Duration)
    /// The notification will be sent again: `attempt` is the attempt about to be made.
    case retried(apnsID: UUID, attempt: Int)
    /// A channel management request or a broadcast was answered (each attempt).
    case requestAnswered(RequestKind, status: Int, reason: APNsReason?, latency: Duration)
    /// A channel management request or a broadcast will be sent again.
    case requestRetried(RequestKind, attempt: Int)
    /// A connection to `origin` finished its handshake and can carry streams.
    case connectionOpened(origin: String)
    /// A connection that had been open closed; `reason` is nil for a quiet close after draining.
    case connectionClosed(origin: String, reason: String?)
    /// A connection attempt failed before the connection could carry streams.
    case connectionFailed(origin: String, reason: String)
    /// The server sent GOAWAY: no new streams on that connection, which is replaced.
    case goaway(origin: String, reason: String?)
    /// A provider token was made: the first one (`isRefresh` false) or a replacement.
    case tokenMinted(keyID: String, isRefresh: Bool)

    /// How important the event is: failures are errors, refusals and lost connections warnings, retries
    /// and connection changes information, each notification's progress debug.
    public var level: Level {
        switch self {
        case .sent, .delivered, .requestAnswered(_, 200..<300, _, _): return .debug
        case .failed, .connectionFailed: return .error
        case .rejected, .goaway, .requestAnswered: return .warning
        case .connectionClosed(_, let reason): return reason == nil ? .info : .warning
        case .retried, .requestRetried, .connectionOpened, .tokenMinted: return .info
        }
    }

    /// One log line: ids, redacted tokens, statuses and reasons (escaped, as they may come from a server).
    public var description: String {
        switch self {
        case .sent(let id, let token, let attempt):
            return "sent \(Self.text(id)) to \(token) (attempt \(attempt))"
        case .delivered(let id, let token, let attempts, let latency):
            return "delivered \(Self.text(id)) to \(token) in \(Self.milliseconds(latency)) (\(attempts) attempt(s))"
        case .rejected(let id, let token, let status, let reason, let latency):
            return "rejected \(Self.text(id)) to \(token): \(status) \(TerminalText.escaped(reason.rawValue)) "
                + "in \(Self.milliseconds(latency))"
        case .failed(let id, let token, let cause, let attempts, let latency):
            return "failed \(Self.text(id)) to \(token): \(cause.rawValue) after \(attempts) attempt(s) "
                + "in \(Self.milliseconds(latency))"
        case .retried(let id, let attempt):
            return "retrying \(Self.text(id)) (attempt \(attempt))"
        case .requestAnswered(let kind, let status, let reason, let latency):
            return "\(kind.rawValue) request answered \(status)"
                + (reason.map { " " + TerminalText.escaped($0.rawValue) } ?? "") + " in \(Self.milliseconds(latency))"
        case .requestRetried(let kind, let attempt):
            return "retrying a \(kind.rawValue) request (attempt \(attempt))"
        case .connectionOpened(let origin):
            return "connection to \(origin) opened"
        case .connectionClosed(let origin, let reason):
            return "connection to \(origin) closed" + (reason.map { ": " + TerminalText.escaped($0) } ?? "")
        case .connectionFailed(let origin, let reason):
            return "connection to \(origin) failed: \(TerminalText.escaped(reason))"
        case .goaway(let origin, let reason):
            return "GOAWAY from \(origin)" + (reason.map { ": " + TerminalText.escaped($0) } ?? "")
        case .tokenMinted(let keyID, let isRefresh):
            return (isRefresh ? "provider token refreshed" : "provider token made") + " (key \(keyID))"
        }
    }

    private static func text(_ id: UUID) -> String { UUIDText.lowercase(id) }

    private static func milliseconds(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        let value = Double(seconds) * 1000 + Double(attoseconds) / 1e15
        return String(format: "%.1f ms", value)
    }
}
