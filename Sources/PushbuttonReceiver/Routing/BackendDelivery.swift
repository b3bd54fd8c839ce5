/// Takes backend requests off the router's hands. The outbox commits them durably before returning,
/// so the completion handler is only called once the tap can no longer be lost.
public protocol BackendDelivery: Sendable {
    func deliver(_ request: BackendRequest) async throws
}
