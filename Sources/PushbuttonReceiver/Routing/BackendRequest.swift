import Pushbutton

/// A call to the app's backend that a tap produced (the `pushbutton.callback` action).
public struct BackendRequest: Sendable, Hashable {
    public var url: String
    /// `POST` unless the payload said otherwise.
    public var method: String
    /// The JSON body: the payload's `body` argument, plus `reply` when the typed text was asked for.
    public var body: JSONValue?
    /// The same for every attempt of the same tap, so the backend can drop duplicates: derived from the
    /// notification, the button and the action's position, never random.
    public var idempotencyKey: String
    /// Which notification and button produced it (for the tap log and the outbox).
    public var notificationIdentifier: String
    public var actionIdentifier: String

    public init(
        url: String, method: String = "POST", body: JSONValue? = nil, idempotencyKey: String,
        notificationIdentifier: String, actionIdentifier: String
    ) {
        self.url = url
        self.method = method
        self.body = body
        self.idempotencyKey = idempotencyKey
        self.notificationIdentifier = notificationIdentifier
        self.actionIdentifier = actionIdentifier
    }
}
