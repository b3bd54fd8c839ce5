import Pushbutton

/// A tag store that keeps tags locally and tells a backend (or Pushbutton's gateway) of every change, through
/// the app's ``BackendDelivery``: with the outbox behind it, a change from a background button is committed
/// durably before the tap completes, and delivered, with retries, even if the app is then suspended.
///
/// Each change is a `POST` of `{"add": [...], "remove": [...]}` to ``url``, with the tap's idempotency key
/// (`tags:` + the notification, button and action position), so a retried delivery changes nothing twice.
/// Which device it is about is the URL's business (e.g. `https://push.example.com/v1/devices/<id>/tags`).
public struct BackendTagStore: TagStore {
    public let local: any TagStore
    public let url: String
    private let backend: any BackendDelivery

    public init(local: any TagStore = DefaultTagStore.make(), url: String, backend: any BackendDelivery) {
        self.local = local
        self.url = url
        self.backend = backend
    }

    public func tags() async throws -> Set<String> { try await local.tags() }

    /// Applies the change locally, then hands it to the backend delivery; an error from either fails the step.
    public func apply(_ change: TagChange) async throws {
        try await local.apply(change)
        let body: JSONValue = [
            "add": .array(change.added.map(JSONValue.string)), "remove": .array(change.removed.map(JSONValue.string)),
        ]
        try await backend.deliver(
            BackendRequest(
                url: url, method: "POST", body: body, idempotencyKey: "tags:" + change.idempotencyKey,
                notificationIdentifier: change.notificationIdentifier, actionIdentifier: change.actionIdentifier))
    }
}
