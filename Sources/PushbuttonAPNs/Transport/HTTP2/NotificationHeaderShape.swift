#if canImport(CNGHTTP2) && canImport(COpenSSL)
    import Foundation
    import Pushbutton

    /// What a connection's header block holds when it was last filled from a notification: everything but
    /// the device token and the apns-id, and where those two are. A bulk send's next notification nearly
    /// always has the same shape (same token length, topic, push type, priority, provider token and payload
    /// size), so its headers are those two values rewritten in place, not a header list built again.
    /// A class: the connection reads its shape once per request, and a struct's copy out of the connection
    /// would retain and release each of its strings.
    final class NotificationHeaderShape {
        let authorization: String?
        let topic: String
        let pushType: PushType
        let priority: Int?
        let expiration: Int64?
        let collapseID: String?
        let tokenLength: Int
        let bodyLength: Int
        /// The fields holding the `:path` and the `apns-id`.
        let pathField: Int
        let apnsIDField: Int

        init(
            authorization: String?, topic: String, pushType: PushType, priority: Int?, expiration: Int64?,
            collapseID: String?, tokenLength: Int, bodyLength: Int, pathField: Int, apnsIDField: Int
        ) {
            self.authorization = authorization
            self.topic = topic
            self.pushType = pushType
            self.priority = priority
            self.expiration = expiration
            self.collapseID = collapseID
            self.tokenLength = tokenLength
            self.bodyLength = bodyLength
            self.pathField = pathField
            self.apnsIDField = apnsIDField
        }

        /// Whether `notification`'s headers differ from this shape's only in the token and the apns-id.
        /// The strings are nearly always the very same ones (one topic, one provider token for minutes), which
        /// String's equality sees without reading them.
        /// Read in place from the delivery: the notification is not copied.
        func fits(_ delivery: Delivery, authorization: String?, bodyLength: Int) -> Bool {
            tokenLength == delivery.notification.deviceToken.hex.utf8.count && bodyLength == self.bodyLength
                && priority == delivery.notification.priority && expiration == delivery.notification.expiration
                && pushType == delivery.notification.pushType && topic == delivery.notification.topic
                && self.authorization == authorization && collapseID == delivery.notification.collapseID
        }
    }
#endif
