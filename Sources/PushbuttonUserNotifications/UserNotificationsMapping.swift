// tvOS has no notification actions, categories or responses: this module is empty there.
#if !os(tvOS)
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
            (.foreground, .foreground), (.destructive, .destructive),
            (.authenticationRequired, .authenticationRequired),
        ]
        /// Per platform, the options it has: macOS has no CarPlay or announcement option, watchOS no hidden-preview
        /// options (a manifest's options a platform lacks have no effect there).
        static let categoryOptionPairs: [(CategoryOptions, UNNotificationCategoryOptions)] = {
            var pairs: [(CategoryOptions, UNNotificationCategoryOptions)] = [
                (.customDismissAction, .customDismissAction)
            ]
            #if !os(macOS)
                pairs += [(.allowInCarPlay, .allowInCarPlay), (.allowAnnouncement, .allowAnnouncement)]
            #endif
            #if !os(watchOS)
                pairs += [
                    (.hiddenPreviewsShowTitle, .hiddenPreviewsShowTitle),
                    (.hiddenPreviewsShowSubtitle, .hiddenPreviewsShowSubtitle),
                ]
            #endif
            return pairs
        }()

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
                    identifier: action.identifier, title: title, options: options(action.options),
                    icon: icon(action.icon))
            }
            return UNTextInputNotificationAction(
                identifier: action.identifier, title: title, options: options(action.options), icon: icon(action.icon),
                textInputButtonTitle: input.buttonTitle.resolved(for: locale),
                textInputPlaceholder: input.placeholder.resolved(for: locale))
        }

        /// The category, titles resolved for `locale` (watchOS has no placeholder or summary format).
        public static func category(_ category: Pushbutton.Category, locale: String?) -> UNNotificationCategory {
            #if os(watchOS)
                UNNotificationCategory(
                    identifier: category.identifier, actions: category.actions.map { action($0, locale: locale) },
                    intentIdentifiers: category.intentIdentifiers, options: options(category.options))
            #else
                UNNotificationCategory(
                    identifier: category.identifier, actions: category.actions.map { action($0, locale: locale) },
                    intentIdentifiers: category.intentIdentifiers,
                    hiddenPreviewsBodyPlaceholder: category.hiddenPreviewsBodyPlaceholder?.resolved(for: locale),
                    categorySummaryFormat: category.summaryFormat?.resolved(for: locale),
                    options: options(category.options))
            #endif
        }

        /// A registered category read back (titles as shown; icons are not readable from the system).
        public static func category(from registered: UNNotificationCategory) -> Pushbutton.Category {
            let actions = registered.actions.map { action -> Pushbutton.Action in
                var model = Pushbutton.Action(
                    action.identifier, title: .literal(action.title), options: options(action.options))
                if let input = action as? UNTextInputNotificationAction {
                    model.textInput = TextInput(
                        buttonTitle: .literal(input.textInputButtonTitle),
                        placeholder: .literal(input.textInputPlaceholder)
                    )
                }
                return model
            }
            #if os(watchOS)
                let placeholder = ""
                let summary = ""
            #else
                let placeholder = registered.hiddenPreviewsBodyPlaceholder
                let summary = registered.categorySummaryFormat
            #endif
            return Pushbutton.Category(
                registered.identifier, actions: actions, intentIdentifiers: registered.intentIdentifiers,
                hiddenPreviewsBodyPlaceholder: placeholder.isEmpty ? nil : .literal(placeholder),
                summaryFormat: summary.isEmpty ? nil : .literal(summary), options: options(registered.options))
        }

        /// The system's notification as the router's.
        public static func notification(_ notification: UNNotification) -> DeliveredNotification {
            let request = notification.request
            let content = request.content
            return DeliveredNotification(
                identifier: request.identifier, date: notification.date, userInfo: jsonObject(content.userInfo),
                categoryIdentifier: content.categoryIdentifier, title: content.title, body: content.body,
                isRemote: isRemote(request))
        }

        /// The system's response as the router's.
        public static func response(_ response: UNNotificationResponse) -> NotificationResponse {
            NotificationResponse(
                notification: notification(response.notification), actionIdentifier: response.actionIdentifier,
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

        /// A JSON object as a local notification's `userInfo`, which must hold property-list values only: a property
        /// list has no null, so keys whose value is `null` are left out (a reader sees no value either way), and a
        /// `null` inside an array, which cannot be left out without moving the elements after it, is an error.
        public static func propertyList(_ object: [String: JSONValue]) throws(PropertyListError) -> [AnyHashable: Any] {
            var result: [AnyHashable: Any] = [:]
            for (key, value) in object {
                if let converted = try propertyList(value, at: .root.appending(key)) { result[key] = converted }
            }
            return result
        }

        /// One JSON value as a property-list value; `nil` for `null` in an object (left out).
        static func propertyList(_ value: JSONValue, at path: JSONPath) throws(PropertyListError) -> Any? {
            switch value {
            case .null: return nil
            case .bool(let bool): return bool
            case .integer(let integer): return Int(integer)
            case .double(let double): return double
            case .string(let string): return string
            case .array(let array):
                var elements: [Any] = []
                for (index, element) in array.enumerated() {
                    guard let converted = try propertyList(element, at: path.appending(index)) else {
                        throw PropertyListError(path: path.appending(index))
                    }
                    elements.append(converted)
                }
                return elements
            case .object(let object):
                var result: [String: Any] = [:]
                for (key, element) in object {
                    if let converted = try propertyList(element, at: path.appending(key)) { result[key] = converted }
                }
                return result
            }
        }
    }
#endif
