/// An ``OutboxSender`` that adds the app's publishable key (`Authorization: Bearer …`) to the outbox's requests
/// for the gateway, and only to those: the key stays out of the outbox's database, and a callback to another
/// server never sees it.
public struct GatewayAuthorizingSender: OutboxSender {
    /// The gateway whose requests get the key.
    public let connection: GatewayConnection
    /// What sends the requests (by default `URLSessionSender`).
    public let base: any OutboxSender

    /// Adds `connection`'s publishable key to its requests, sent by `base`.
    public init(connection: GatewayConnection, over base: any OutboxSender = URLSessionSender()) {
        self.connection = connection
        self.base = base
    }

    /// Sends `request` with `base`, with `Authorization: Bearer <publishable key>` when it is for the gateway.
    public func send(_ request: OutgoingRequest) async throws -> Int {
        var request = request
        if request.url.hasPrefix(connection.baseURL + "/") {
            request.headers["Authorization"] = "Bearer " + connection.publishableKey
        }
        return try await base.send(request)
    }
}
