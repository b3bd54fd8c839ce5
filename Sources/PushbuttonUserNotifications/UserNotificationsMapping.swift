import Foundation
import Pushbutton
import PushbuttonReceiver

#if canImport(UserNotifications)
    import UserNotifications
#else
    import UserNotificationsStandIn
#endif

/// Maps Pushbutton's model to `UserNotifications` objects and back.
public enum UserNotificationsMapping {
    /// Each option paired with Apple's, spelled out rather than copying raw values, so a mistake cannot hide
    /// in a number. Both directions of the mapping come from these tables.
    static let actionOptionPairs: [(ActionOptions, UNNotificationActionOptions)] = [
        (.foreground, .foreground), (.destructive, .destructive), (.authenticationRequired, .authenticationRequired),
    ]
    static let categoryOptionPairs: [(CategoryOptions, UNNotificationCategoryOptions)] = [
        (.customDismissAction, .customDismissAction), (.allowInCarPlay, .allowInCarPlay),
        (.hiddenPreviewsShowTitle, .hiddenPreviewsShowTitle),
        (.hiddenPreviewsShowSubtitle, .hiddenPreviewsShowSubtitle),
        (.allowAnnouncement, .allowAnnouncement),
    ]

    public static func options(_ options: ActionOptions) -> UNNotificationActionOptions {
        UNNotificationActionOptions(actionOptionPairs.filter { options.contains($0.0) }.map(\.1))
    }

    public static func options(_ options: CategoryOptions) -> UNNotificationCategoryOptions {
        UNNotificationCategoryOptions(categoryOptionPairs.filter { options.contains($0.0) }.map(\.1))
    }

    static func options(_ options: UNNotificationActionOptions) -> ActionOptions {
        ActionOptions(actionOptionPairs.filter { options.contains($0.1) }.map(\.0))
    }

    static func options(_ options: UNNotificationCategoryOptions) -> CategoryOptions {
        CategoryOptions(categoryOptionPairs.filter { options.contains($0.1) }.map(\.0))
    }

    public static func authorizationOptions(_ options: AuthorizationOptions) -> UNAuthorizationOptions {
        UNAuthorizationOptions(rawValue: options.rawValue)  // the same bits: both follow Apple's header
    }

    public static func icon(_ icon: ActionIcon?) -> UNNotificationActionIcon? {
        switch icon {
        case .system(let name)?: return UNNotificationActionIcon(systemImageName: name)
        case .template(let name)?: return UNNotificationActionIcon(templateImageName: name)
        case nil: return nil
        }
    }

    /// The action, titles resolved for `locale`.
    public static func action(_ action: Pushbutton.Action, locale: String?) -> UNNotificationAction {
        let title = action.title.resolved(for: locale)
        guard let input = action.textInput else {
            return UNNotificationAction(
                identifier: action.identifier, title: title, options: options(action.options), icon: icon(action.icon))
        }
        return UNTextInputNotificationAction(
            identifier: action.identifier, title: title, options: options(action.options), icon: icon(action.icon),
            textInputButtonTitle: input.buttonTitle.resolved(for: locale),
            textInputPlaceholder: input.placeholder.resolved(for: locale))
    }

    /// The category, titles resolved for `locale`.
    public static func category(_ category: Pushbutton.Category, locale: String?) -> UNNotificationCategory {
        UNNotificationCategory(
            identifier: category.identifier, actions: category.actions.map { action($0, locale: locale) },
            intentIdentifiers: category.intentIdentifiers,
            hiddenPreviewsBodyPlaceholder: category.hiddenPreviewsBodyPlaceholder?.resolved(for: locale),
            categorySummaryFormat: category.summaryFormat?.resolved(for: locale), options: options(category.options))
    }

    /// A registered category read back (titles as shown; icons are not readable from the system).
    public static func category(from registered: UNNotificationCategory) -> Pushbutton.Category {
        let actions = registered.actions.map { action -> Pushbutton.Action in
            var model = Pushbutton.Action(
                action.identifier, title: .literal(action.title), options: options(action.options))
            if let input = action as? UNTextInputNotificationAction {
                model.textInput = TextInput(
                    buttonTitle: .literal(input.textInputButtonTitle), placeholder: .literal(input.textInputPlaceholder)
                )
            }
            return model
        }
        let placeholder = registered.hiddenPreviewsBodyPlaceholder
        let summary = registered.categorySummaryFormat
        return Pushbutton.Category(
            registered.identifier, actions: actions, intentIdentifiers: registered.intentIdentifiers,
            hiddenPreviewsBodyPlaceholder: placeholder.isEmpty ? nil : .literal(placeholder),
            summaryFormat: summary.isEmpty ? nil : .literal(summary), options: options(registered.options))
    }

    /// The system's response as the router's.
    public static func response(_ response: UNNotificationResponse) -> NotificationResponse {
        let request = response.notification.request
        let content = request.content
        let notification = DeliveredNotification(
            identifier: request.identifier, date: response.notification.date, userInfo: jsonObject(content.userInfo),
            categoryIdentifier: content.categoryIdentifier, title: content.title, body: content.body,
            isRemote: isRemote(request))
        return NotificationResponse(
            notification: notification, actionIdentifier: response.actionIdentifier,
            userText: (response as? UNTextInputNotificationResponse)?.userText)
    }

    private static func isRemote(_ request: UNNotificationRequest) -> Bool {
        #if canImport(UserNotifications)
            return request.trigger is UNPushNotificationTrigger
        #else
            return request.trigger == nil
        #endif
    }

    /// `userInfo` (property-list values) as JSON.
    public static func jsonObject(_ userInfo: [AnyHashable: Any]) -> [String: JSONValue] {
        var object: [String: JSONValue] = [:]
        for (key, value) in userInfo {
            guard let key = key.base as? String else { continue }
            object[key] = jsonValue(value)
        }
        return object
    }

    /// One property-list value as JSON (`Data` and dates, which JSON lacks, become strings).
    ///
    /// Native Swift values are matched by exact type first; `NSNumber`s (what the system decodes a push
    /// into) by their Objective-C type, because `true` and `1` cast into each other through `NSNumber`.
    public static func jsonValue(_ value: Any) -> JSONValue {
        switch value {
        case is NSNull: return .null
        case let string as String: return .string(string)
        case let array as [Any]: return .array(array.map(jsonValue))
        case let dictionary as [AnyHashable: Any]: return .object(jsonObject(dictionary))
        case let data as Data: return .string(data.base64EncodedString())
        case let date as Date: return .string(ISO8601DateFormatter().string(from: date))
        default: break
        }
        if let bool = value as? Bool, type(of: value) == Bool.self { return .bool(bool) }
        if let integer = value as? Int, type(of: value) == Int.self { return .integer(Int64(integer)) }
        if let integer = value as? Int64, type(of: value) == Int64.self { return .integer(integer) }
        if let double = value as? Double, type(of: value) == Double.self { return .double(double) }
        if let number = value as? NSNumber {
            switch String(cString: number.objCType) {
            case "c", "B": return .bool(number.boolValue)
            case "d", "f": return .double(number.doubleValue)
            default: return .integer(number.int64Value)
            }
        }
        return .string(String(describing: value))
    }

    /// JSON as property-list values, for a local notification's `userInfo`.
    public static func propertyList(_ value: JSONValue) -> Any {
        switch value {
        case .null: return NSNull()
        case .bool(let bool): return bool
        case .integer(let integer): return Int(integer)
        case .double(let double): return double
        case .string(let string): return string
        case .array(let array): return array.map(propertyList)
        case .object(let object): return object.mapValues(propertyList)
        }
    }
}
