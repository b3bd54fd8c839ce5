import Pushbutton

/// What an app-defined action receives.
public struct ActionContext: Sendable {
    /// The action's identifier as registered.
    public var identifier: String
    /// Its arguments: from the payload's per-button actions, or its `action_args`.
    public var arguments: [String: JSONValue]
    public var situation: Situation
    /// The notification it came from (`nil` when performed manually without one).
    public var notification: DeliveredNotification?
    /// The text typed into a text-input action.
    public var replyText: String?
    /// The router's backend, for ``deliver(to:method:body:key:)`` (`nil` when performed outside a router).
    var backend: (any BackendDelivery)?
    /// The tap's idempotency key for this action (notification, button, step), as the built-in callback's.
    var tapKey: String?

    public init(
        identifier: String, arguments: [String: JSONValue] = [:], situation: Situation,
        notification: DeliveredNotification? = nil, replyText: String? = nil
    ) {
        self.identifier = identifier
        self.arguments = arguments
        self.situation = situation
        self.notification = notification
        self.replyText = replyText
    }

    /// Delivers a request to the app's backend durably, through the same path as the built-in
    /// `pushbutton.callback`: the router's backend (the outbox, or `ImmediateDelivery`) commits it before this
    /// returns, sends it with an idempotency key derived from the tap (the notification, the button and the
    /// action's place), and retries until the backend acknowledges it. The same tap routed again gives the same key,
    /// which the outbox stores once, so the backend hears it exactly once.
    ///
    /// - Parameters:
    ///   - key: tells apart several deliveries of one action (each needs its own); `nil` for the only one.
    /// - Throws: ``ActionDeliveryError`` when there is no backend (an action performed outside the router, or a
    ///   router without one), or what the backend throws when it cannot store the request.
    public func deliver(to url: String, method: String = "POST", body: JSONValue? = nil, key: String? = nil)
        async throws
    {
        guard let backend, let tapKey, let notification else {
            throw ActionDeliveryError(
                "'\(identifier)' has no backend to deliver to: it was performed outside a router, or the router has none"
            )
        }
        try await backend.deliver(
            BackendRequest(
                url: url, method: method, body: body, idempotencyKey: tapKey + (key.map { ":" + $0 } ?? ""),
                notificationIdentifier: notification.identifier, actionIdentifier: identifier))
    }
}
