/// A transport that takes a notification's ``Delivery`` as it is: it writes the request's headers itself,
/// from the notification the delivery holds, into storage it reuses, and reads only the answer's status,
/// `apns-unique-id` and error body, so an attempt costs no header list, no path or id strings, no response
/// dictionary and no copy of the notification. The client uses it when the transport offers it (the nghttp2
/// one does), and ``APNsTransport/submit(_:completion:)`` otherwise.
protocol NotificationTransport: APNsTransport {
    /// Sends one attempt of `delivery`'s notification; the delivery's ``Delivery/received(_:)`` is called
    /// once with its outcome, on the transport's thread. `authorization` is the whole `authorization` header
    /// value (`bearer …`), or nil for certificate authentication.
    func submit(_ delivery: Delivery, authorization: String?, timeout: Duration)
}
