import Foundation
import PushbuttonReceiver

extension GatewayClient: DeviceTokenHandler {
    /// Registers the token with the gateway, durably through the outbox (``register(deviceToken:locale:appVersion:userID:tags:timeZone:)``
    /// with its defaults), so `SystemNotificationCenter.start(...)` can hand it over.
    public func deviceTokenReceived(_ deviceToken: Data) async throws {
        try await register(deviceToken: deviceToken)
    }
}
