import Pushbutton

/// Why a channel management request did not succeed: APNs refused it (its status, reason and
/// `apns-request-id`), or it was never answered (the cause, as for a notification).
public enum APNsChannelError: Error, Sendable, Hashable, CustomStringConvertible {
    /// APNs answered with an error status; `reason` is from the JSON body (``APNsReason``, extensible).
    case rejected(status: Int, reason: APNsReason, requestID: String?)
    /// No answer to go by after `attempts` attempts: the request was invalid (kind `invalidRequest`), the key
    /// unusable, the stream lost (a `create` is never sent twice: list the channels to see whether it was
    /// made), retries ran out, or the client was shut down or cancelled.
    case failed(APNsError, attempts: Int)

    /// The reason, when APNs gave one.
    public var reason: APNsReason? {
        if case .rejected(_, let reason, _) = self { return reason }
        return nil
    }

    /// The status, when APNs answered.
    public var status: Int? {
        if case .rejected(let status, _, _) = self { return status }
        return nil
    }

    /// The status, reason and request id, or the cause, with what to do about it.
    public var description: String {
        switch self {
        case .rejected(let status, let reason, let requestID):
            // The reason and the request id come from the server: escaped, so they cannot write to a terminal.
            var text = "rejected: \(status) \(TerminalText.escaped(reason.rawValue))"
            if let requestID { text += " (apns-request-id \(TerminalText.escaped(requestID)))" }
            if let hint = reason.channelHint { text += ": " + hint }
            return text
        case .failed(let cause, let attempts):
            return "failed after \(attempts) attempt(s): \(TerminalText.escaped(cause.message))"
        }
    }
}
