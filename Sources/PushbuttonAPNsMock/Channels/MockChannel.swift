import Foundation

/// A broadcast channel the mock holds, as APNs would.
public struct MockChannel: Sendable, Hashable {
    /// The id the mock assigned: base64 text, as APNs' are.
    public var id: String
    /// The app it belongs to.
    public var bundleID: String
    /// `message-storage-policy`: 0 or 1.
    public var messageStoragePolicy: Int
    /// When it was created (the mock's clock).
    public var createdAt: Date
}
