/// An ``OutboxSender`` that adds the app's publishable key (`Authorization: Bearer …`) to the outbox's requests
/// for the gateway, and only to those: the key stays out of the outbox's database, and a callback to another
/// server never sees it.
public struct GatewayAuthorizingSender: OutboxSender {
    public let connection: GatewayConnection
    public let base: any OutboxSender

    public init(connection: GatewayConnection, over base: any OutboxSender = URLSessionSender()) {
        self.connection = connection
        self.base = base
    }

    public func send(_ request: OutgoingRequest) async throws -> Int {
        var request = request
        if request.url.hasPrefix(connection.baseURL + "/") {
            request.headers["Authorization"] = "Bearer " + connection.publishableKey
        }
        return try await base.send(request)
    }
}
