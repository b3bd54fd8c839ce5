import Foundation
import Pushbutton

extension APNsNotification {
    /// A notification of `payload` (written as compact JSON) to the device whose token is `deviceToken`, with
    /// typed priority and expiration: the common case in one call.
    ///
    /// ```swift
    /// let notification = try APNsNotification(
    ///     deviceToken: hex, payload: .interactive(category: "message", body: "Lunch?"),
    ///     topic: "com.example.chatter", priority: .immediately)
    /// ```
    ///
    /// - Throws: ``APNsError`` of kind `invalidDeviceToken` when `deviceToken` is not a device token in hex.
    public init(
        deviceToken: String, payload: Payload, topic: String, pushType: PushType = .alert,
        priority: APNsPriority? = nil, expiration: APNsExpiration? = nil, collapseID: String? = nil,
        apnsID: UUID = APNsNotification.newID()
    ) throws(APNsError) {
        self.init(
            deviceToken: try DeviceToken(deviceToken), payload: payload, topic: topic, pushType: pushType,
            priority: priority, expiration: expiration, collapseID: collapseID, apnsID: apnsID)
    }

    /// A notification of `payload` (written as compact JSON) to `deviceToken`, with typed priority and
    /// expiration.
    public init(
        deviceToken: DeviceToken, payload: Payload, topic: String, pushType: PushType = .alert,
        priority: APNsPriority? = nil, expiration: APNsExpiration? = nil, collapseID: String? = nil,
        apnsID: UUID = APNsNotification.newID()
    ) {
        self.init(
            deviceToken: deviceToken, payload: PayloadWriter.encode(payload), topic: topic, pushType: pushType,
            priority: priority?.rawValue, expiration: expiration?.epochSeconds, collapseID: collapseID,
            apnsID: apnsID)
    }
}
