import Foundation
import Pushbutton

extension ResponseRouter {
    /// The key iOS 9 used for the typed text in `responseInfo`.
    public static let legacyTypedTextKey = "UIUserNotificationActionResponseTypedTextKey"

    /// Routes `application(_:handleActionWithIdentifier:forRemoteNotification:withResponseInfo:completionHandler:)`
    /// (and the variant without response info) through the same router. A `nil` identifier is a body tap.
    public func handleLegacyAction(
        identifier: String?, forRemoteNotification userInfo: [String: JSONValue],
        withResponseInfo responseInfo: [String: JSONValue] = [:], completionHandler: @escaping () -> Void
    ) {
        handle(
            Self.legacyResponse(identifier, userInfo, responseInfo, isRemote: true),
            completionHandler: completionHandler)
    }

    /// Routes `application(_:handleActionWithIdentifier:for:withResponseInfo:completionHandler:)` for a local
    /// notification; its category and user info come from the notification.
    public func handleLegacyAction(
        identifier: String?, forLocalNotification request: LocalNotificationRequest,
        withResponseInfo responseInfo: [String: JSONValue] = [:], completionHandler: @escaping () -> Void
    ) {
        var response = Self.legacyResponse(identifier, request.userInfo, responseInfo, isRemote: false)
        response.notification.identifier = request.identifier
        response.notification.categoryIdentifier = request.categoryIdentifier
        response.notification.title = request.title
        response.notification.body = request.body
        handle(response, completionHandler: completionHandler)
    }

    /// The modern response a legacy callback stands for. The legacy callbacks carry no request identifier,
    /// and each call is one tap, so each gets its own: the payload's hash (to find it in logs) and a UUID.
    /// Two taps on identical notifications are therefore two responses, never collapsed by the outbox's
    /// idempotency keys; a retry of one tap's backend call keeps its key, since the key is made once here.
    static func legacyResponse(
        _ identifier: String?, _ userInfo: [String: JSONValue], _ responseInfo: [String: JSONValue], isRemote: Bool,
        tap: UUID = UUID()
    ) -> NotificationResponse {
        let payload = Payload.parse(.object(userInfo)).payload
        let hash = FNV1a.hash(JSONWriter.compact(.object(userInfo)))
        let notification = DeliveredNotification(
            identifier: "legacy-" + String(hash, radix: 16) + "-" + tap.uuidString.lowercased(), date: Date(),
            userInfo: userInfo,
            categoryIdentifier: payload?.aps.category ?? "", title: "", body: payload?.aps.alert?.body ?? "",
            isRemote: isRemote)
        return NotificationResponse(
            notification: notification, actionIdentifier: identifier ?? SystemIdentifiers.defaultAction,
            userText: responseInfo[legacyTypedTextKey]?.stringValue)
    }
}
