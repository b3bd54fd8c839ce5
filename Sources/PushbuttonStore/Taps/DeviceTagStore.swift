import Foundation

/// Tag changes a device makes itself (`POST /v1/apps/{app}/devices/{token}/tags`), without re-registering.
public protocol DeviceTagStore: Sendable {
    /// Adds and removes tags of a registered device in one transaction; `nil` when it is not registered.
    func updateTags(app: String, token: String, add: [String], remove: [String], now: Date) throws(StoreError)
        -> DeviceRecord?
}
