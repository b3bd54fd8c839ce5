import PushbuttonOutbox

/// What a webhook post's answer means for its events.
enum WebhookAnswer: Sendable {
    /// 2xx: the receiver has them.
    case acknowledged
    /// Refused for good (a 4xx other than 408, 425 and 429): retrying would be refused again.
    case refused(String)
    /// A network failure, a redirect (never followed) or a temporary status: posted again after a backoff.
    case retry(String)

    /// Posts `request` and classifies the answer.
    static func of(_ request: OutgoingRequest, sender: any OutboxSender) async -> WebhookAnswer {
        do {
            let status = try await sender.send(request)
            switch status {
            case 200..<300: return .acknowledged
            case 300..<400: return .retry("HTTP \(status): a redirect, which the webhook does not follow")
            case 408, 425, 429, 500..<600: return .retry("HTTP \(status)")
            default: return .refused("HTTP \(status): the receiver refused the request")
            }
        } catch {
            return .retry("\(error)")
        }
    }
}
