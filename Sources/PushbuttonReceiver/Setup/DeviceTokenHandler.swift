import Foundation

/// Receives the APNs device token, to register it with whoever sends the pushes (Pushbutton's gateway client,
/// or the app's own backend).
public protocol DeviceTokenHandler: Sendable {
    /// Registers `deviceToken` (the bytes APNs gave the app).
    func deviceTokenReceived(_ deviceToken: Data) async throws
}
