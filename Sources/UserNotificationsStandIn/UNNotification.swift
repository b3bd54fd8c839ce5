import Foundation

/// Mirrors `UNNotificationContent` (NSCopying and NSMutableCopying, as Apple's, for a service extension's
/// `mutableCopy()`).
open class UNNotificationContent: NSObject, NSCopying, NSMutableCopying, @unchecked Sendable {
    fileprivate var storage = Storage()

    fileprivate struct Storage {
        var title = ""
        var subtitle = ""
        var body = ""
        var categoryIdentifier = ""
        var threadIdentifier = ""
        var userInfo: [AnyHashable: Any] = [:]
        var attachments: [UNNotificationAttachment] = []
    }

    @available(tvOS, unavailable)
    open var title: String { storage.title }
    @available(tvOS, unavailable)
    open var subtitle: String { storage.subtitle }
    @available(tvOS, unavailable)
    open var body: String { storage.body }
    @available(tvOS, unavailable)
    open var categoryIdentifier: String { storage.categoryIdentifier }
    @available(tvOS, unavailable)
    open var threadIdentifier: String { storage.threadIdentifier }
    open var userInfo: [AnyHashable: Any] { storage.userInfo }
    /// Mirrors `attachments` (iOS 10, macOS 10.14, watchOS 3; not on tvOS).
    @available(iOS 10, macOS 10.14, watchOS 3, *)
    @available(tvOS, unavailable)
    open var attachments: [UNNotificationAttachment] { storage.attachments }

    open func copy(with zone: NSZone? = nil) -> Any {
        let copy = UNNotificationContent()
        copy.storage = storage
        return copy
    }

    open func mutableCopy(with zone: NSZone? = nil) -> Any {
        let copy = UNMutableNotificationContent()
        copy.storage = storage
        return copy
    }
}

/// Mirrors `UNMutableNotificationContent`.
open class UNMutableNotificationContent: UNNotificationContent, @unchecked Sendable {
    @available(tvOS, unavailable)
    override open var title: String {
        get { storage.title }
        set { storage.title = newValue }
    }
    @available(tvOS, unavailable)
    override open var subtitle: String {
        get { storage.subtitle }
        set { storage.subtitle = newValue }
    }
    @available(tvOS, unavailable)
    override open var body: String {
        get { storage.body }
        set { storage.body = newValue }
    }
    @available(tvOS, unavailable)
    override open var categoryIdentifier: String {
        get { storage.categoryIdentifier }
        set { storage.categoryIdentifier = newValue }
    }
    @available(tvOS, unavailable)
    override open var threadIdentifier: String {
        get { storage.threadIdentifier }
        set { storage.threadIdentifier = newValue }
    }
    override open var userInfo: [AnyHashable: Any] {
        get { storage.userInfo }
        set { storage.userInfo = newValue }
    }
    @available(iOS 10, macOS 10.14, watchOS 3, *)
    @available(tvOS, unavailable)
    override open var attachments: [UNNotificationAttachment] {
        get { storage.attachments }
        set { storage.attachments = newValue }
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
@available(iOS 10, macOS 10.14, watchOS 3, *)
@available(tvOS, unavailable)
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
@available(iOS 10, macOS 10.14, watchOS 3, *)
@available(tvOS, unavailable)
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
        content.storage.title = title
        content.storage.body = body
        content.storage.categoryIdentifier = categoryIdentifier
        content.storage.userInfo = userInfo
        return content
    }
}
