/// Receives the outcome of one attempt from a ``NotificationTransport``, on the transport's thread.
protocol NotificationResponseHandler: AnyObject, Sendable {
    func received(_ outcome: Result<APNsResponse, APNsError>)
}

/// A transport that takes a notification as it is: it writes the request's headers itself into storage it
/// reuses and reads only the answer's status, `apns-unique-id` and error body, so an attempt costs no
/// header list, no path or id strings and no response dictionary. The client uses it when the transport
/// offers it (the nghttp2 one does), and ``APNsTransport/submit(_:completion:)`` otherwise.
protocol NotificationTransport: APNsTransport {
    /// Sends one attempt; `handler` is called once with its outcome. `authorization` is the whole
    /// `authorization` header value (`bearer …`), or nil for certificate authentication.
    func submit(
        _ notification: APNsNotification, authorization: String?, timeout: Duration,
        handler: any NotificationResponseHandler)
}
