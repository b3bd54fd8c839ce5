import Foundation
import Pushbutton

/// A notification the system delivered: what the router and handlers see of it.
public struct DeliveredNotification: Sendable, Hashable {
    /// The request identifier (for a remote notification, the `apns-id` or one the system made up).
    public var identifier: String
    /// When it was delivered; the tap's latency is measured from here.
    public var date: Date
    /// The payload (`userInfo`), as JSON.
    public var userInfo: [String: JSONValue]
    /// `aps.category`, or a local request's category.
    public var categoryIdentifier: String
    public var title: String
    public var body: String
    /// Whether it came from APNs (otherwise it is a local notification).
    public var isRemote: Bool

    public init(
        identifier: String, date: Date, userInfo: [String: JSONValue], categoryIdentifier: String, title: String = "",
        body: String = "", isRemote: Bool = true
    ) {
        self.identifier = identifier
        self.date = date
        self.userInfo = userInfo
        self.categoryIdentifier = categoryIdentifier
        self.title = title
        self.body = body
        self.isRemote = isRemote
    }

    /// A remote notification carrying `payload`, as the system would present it.
    public init(identifier: String, date: Date, payload: Payload) {
        let alert = payload.aps.alert
        let title: String
        switch alert {
        case .content(let content)?: title = content.title ?? ""
        default: title = ""
        }
        self.init(
            identifier: identifier, date: date, userInfo: payload.jsonValue.objectValue ?? [:],
            categoryIdentifier: payload.aps.category ?? "", title: title, body: alert?.body ?? "", isRemote: true)
    }

    /// The payload read from `userInfo` (unknown keys kept).
    public var payload: Payload? { Payload.parse(.object(userInfo)).payload }
}
