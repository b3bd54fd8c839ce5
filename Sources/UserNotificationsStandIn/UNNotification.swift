import Foundation

/// Mirrors `UNNotificationContent`.
open class UNNotificationContent: NSObject, @unchecked Sendable {
    open fileprivate(set) var title: String = ""
    open fileprivate(set) var subtitle: String = ""
    open fileprivate(set) var body: String = ""
    open fileprivate(set) var categoryIdentifier: String = ""
    open fileprivate(set) var threadIdentifier: String = ""
    open fileprivate(set) var userInfo: [AnyHashable: Any] = [:]
}

/// Mirrors `UNMutableNotificationContent`.
open class UNMutableNotificationContent: UNNotificationContent, @unchecked Sendable {
    override open var title: String {
        get { super.title }
        set { super.title = newValue }
    }
    override open var subtitle: String {
        get { super.subtitle }
        set { super.subtitle = newValue }
    }
    override open var body: String {
        get { super.body }
        set { super.body = newValue }
    }
    override open var categoryIdentifier: String {
        get { super.categoryIdentifier }
        set { super.categoryIdentifier = newValue }
    }
    override open var threadIdentifier: String {
        get { super.threadIdentifier }
        set { super.threadIdentifier = newValue }
    }
    override open var userInfo: [AnyHashable: Any] {
        get { super.userInfo }
        set { super.userInfo = newValue }
    }
}

/// Mirrors `UNNotificationTrigger`.
open class UNNotificationTrigger: NSObject, @unchecked Sendable {
    open private(set) var repeats: Bool

    init(repeats: Bool) {
        self.repeats = repeats
        super.init()
    }
}

/// Mirrors `UNTimeIntervalNotificationTrigger`.
open class UNTimeIntervalNotificationTrigger: UNNotificationTrigger, @unchecked Sendable {
    open private(set) var timeInterval: TimeInterval

    public convenience init(timeInterval: TimeInterval, repeats: Bool) {
        self.init(interval: timeInterval, repeats: repeats)
    }

    init(interval: TimeInterval, repeats: Bool) {
        timeInterval = interval
        super.init(repeats: repeats)
    }
}

/// Mirrors `UNNotificationRequest`.
open class UNNotificationRequest: NSObject, @unchecked Sendable {
    open private(set) var identifier: String
    open private(set) var content: UNNotificationContent
    open private(set) var trigger: UNNotificationTrigger?

    public convenience init(identifier: String, content: UNNotificationContent, trigger: UNNotificationTrigger?) {
        self.init(standInIdentifier: identifier, content: content, trigger: trigger)
    }

    init(standInIdentifier identifier: String, content: UNNotificationContent, trigger: UNNotificationTrigger?) {
        self.identifier = identifier
        self.content = content
        self.trigger = trigger
        super.init()
    }
}

/// Mirrors `UNNotification`.
open class UNNotification: NSObject, @unchecked Sendable {
    open private(set) var date: Date
    open private(set) var request: UNNotificationRequest

    /// Stand-in only: the system makes notifications.
    public init(standInRequest request: UNNotificationRequest, date: Date) {
        self.request = request
        self.date = date
        super.init()
    }
}

/// Mirrors `UNNotificationResponse`.
open class UNNotificationResponse: NSObject, @unchecked Sendable {
    open private(set) var notification: UNNotification
    open private(set) var actionIdentifier: String

    /// Stand-in only: the system makes responses.
    public init(standInNotification notification: UNNotification, actionIdentifier: String) {
        self.notification = notification
        self.actionIdentifier = actionIdentifier
        super.init()
    }
}

/// Mirrors `UNTextInputNotificationResponse`.
open class UNTextInputNotificationResponse: UNNotificationResponse, @unchecked Sendable {
    open private(set) var userText: String

    /// Stand-in only: the system makes responses.
    public init(standInNotification notification: UNNotification, actionIdentifier: String, userText: String) {
        self.userText = userText
        super.init(standInNotification: notification, actionIdentifier: actionIdentifier)
    }
}

extension UNNotificationContent {
    /// Stand-in only: fills a content object as the system would from a push.
    public static func standIn(
        title: String = "", body: String = "", categoryIdentifier: String = "", userInfo: [AnyHashable: Any] = [:]
    ) -> UNNotificationContent {
        let content = UNNotificationContent()
        content.title = title
        content.body = body
        content.categoryIdentifier = categoryIdentifier
        content.userInfo = userInfo
        return content
    }
}
