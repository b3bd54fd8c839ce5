import Foundation

/// Mirrors `UNNotificationContent` (NSCopying and NSMutableCopying, as Apple's, for a service extension's
/// `mutableCopy()`).
///
/// Checked against usernotifications/unnotificationcontent (developer.apple.com, UNNotificationContent.h): open
/// NSObject subclass, NSCopying and NSMutableCopying; iOS 10, macOS 10.14, tvOS 10, watchOS 3.
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

    /// Checked against usernotifications/unnotificationcontent/title (developer.apple.com, UNNotificationContent.h):
    /// String, get-only; tvOS unavailable.
    @available(tvOS, unavailable)
    open var title: String { storage.title }
    /// Checked against usernotifications/unnotificationcontent/subtitle (developer.apple.com, UNNotificationContent.h):
    /// String, get-only; tvOS unavailable.
    @available(tvOS, unavailable)
    open var subtitle: String { storage.subtitle }
    /// Checked against usernotifications/unnotificationcontent/body (developer.apple.com, UNNotificationContent.h):
    /// String, get-only; tvOS unavailable.
    @available(tvOS, unavailable)
    open var body: String { storage.body }
    /// Checked against usernotifications/unnotificationcontent/categoryidentifier (developer.apple.com,
    /// UNNotificationContent.h): String, get-only; tvOS unavailable.
    @available(tvOS, unavailable)
    open var categoryIdentifier: String { storage.categoryIdentifier }
    /// Checked against usernotifications/unnotificationcontent/threadidentifier (developer.apple.com,
    /// UNNotificationContent.h): String, get-only; tvOS unavailable.
    @available(tvOS, unavailable)
    open var threadIdentifier: String { storage.threadIdentifier }
    /// Checked against usernotifications/unnotificationcontent/userinfo (developer.apple.com, UNNotificationContent.h):
    /// [AnyHashable: Any], get-only; all platforms.
    open var userInfo: [AnyHashable: Any] { storage.userInfo }
    /// Mirrors `attachments` (iOS 10, macOS 10.14, watchOS 3; not on tvOS).
    /// Checked against usernotifications/unnotificationcontent/attachments (developer.apple.com,
    /// UNNotificationContent.h): [UNNotificationAttachment], get-only, non-optional.
    @available(iOS 10, macOS 10.14, watchOS 3, *)
    @available(tvOS, unavailable)
    open var attachments: [UNNotificationAttachment] { storage.attachments }

    /// Checked against NSCopying copy(with:) (developer.apple.com, Foundation): `(with zone: NSZone? = nil) -> Any`.
    open func copy(with zone: NSZone? = nil) -> Any {
        let copy = UNNotificationContent()
        copy.storage = storage
        return copy
    }

    /// Checked against NSMutableCopying mutableCopy(with:) (developer.apple.com, Foundation): `(with zone: NSZone? =
    /// nil) -> Any`.
    open func mutableCopy(with zone: NSZone? = nil) -> Any {
        let copy = UNMutableNotificationContent()
        copy.storage = storage
        return copy
    }
}

/// Mirrors `UNMutableNotificationContent`.
/// Checked against usernotifications/unmutablenotificationcontent (developer.apple.com, UNNotificationContent.h):
/// subclass of UNNotificationContent; iOS 10, macOS 10.14, tvOS 10, watchOS 3.
open class UNMutableNotificationContent: UNNotificationContent, @unchecked Sendable {
    /// Checked against usernotifications/unmutablenotificationcontent/title (developer.apple.com,
    /// UNNotificationContent.h): String, get set; tvOS unavailable.
    @available(tvOS, unavailable)
    override open var title: String {
        get { storage.title }
        set { storage.title = newValue }
    }
    /// Checked against usernotifications/unmutablenotificationcontent/subtitle (developer.apple.com,
    /// UNNotificationContent.h): String, get set; tvOS unavailable.
    @available(tvOS, unavailable)
    override open var subtitle: String {
        get { storage.subtitle }
        set { storage.subtitle = newValue }
    }
    /// Checked against usernotifications/unmutablenotificationcontent/body (developer.apple.com,
    /// UNNotificationContent.h): String, get set; tvOS unavailable.
    @available(tvOS, unavailable)
    override open var body: String {
        get { storage.body }
        set { storage.body = newValue }
    }
    /// Checked against usernotifications/unmutablenotificationcontent/categoryidentifier (developer.apple.com,
    /// UNNotificationContent.h): String, get set; tvOS unavailable.
    @available(tvOS, unavailable)
    override open var categoryIdentifier: String {
        get { storage.categoryIdentifier }
        set { storage.categoryIdentifier = newValue }
    }
    /// Checked against usernotifications/unmutablenotificationcontent/threadidentifier (developer.apple.com,
    /// UNNotificationContent.h): String, get set; tvOS unavailable.
    @available(tvOS, unavailable)
    override open var threadIdentifier: String {
        get { storage.threadIdentifier }
        set { storage.threadIdentifier = newValue }
    }
    /// Checked against usernotifications/unmutablenotificationcontent/userinfo (developer.apple.com,
    /// UNNotificationContent.h): [AnyHashable: Any], get set.
    override open var userInfo: [AnyHashable: Any] {
        get { storage.userInfo }
        set { storage.userInfo = newValue }
    }
    /// Checked against usernotifications/unmutablenotificationcontent/attachments (developer.apple.com,
    /// UNNotificationContent.h): [UNNotificationAttachment], get set; tvOS unavailable.
    @available(iOS 10, macOS 10.14, watchOS 3, *)
    @available(tvOS, unavailable)
    override open var attachments: [UNNotificationAttachment] {
        get { storage.attachments }
        set { storage.attachments = newValue }
    }
}

/// Mirrors `UNNotificationTrigger`.
/// Checked against usernotifications/unnotificationtrigger (developer.apple.com, UNNotificationTrigger.h): open
/// NSObject subclass; iOS 10, macOS 10.14, tvOS 10, watchOS 3.
open class UNNotificationTrigger: NSObject, @unchecked Sendable {
    /// Checked against usernotifications/unnotificationtrigger/repeats (developer.apple.com, UNNotificationTrigger.h):
    /// Bool, get-only.
    open private(set) var repeats: Bool

    init(repeats: Bool) {
        self.repeats = repeats
        super.init()
    }
}

/// Mirrors `UNTimeIntervalNotificationTrigger`.
/// Checked against usernotifications/untimeintervalnotificationtrigger (developer.apple.com, UNNotificationTrigger.h):
/// subclass of UNNotificationTrigger.
open class UNTimeIntervalNotificationTrigger: UNNotificationTrigger, @unchecked Sendable {
    /// Checked against usernotifications/untimeintervalnotificationtrigger/timeinterval (developer.apple.com,
    /// UNNotificationTrigger.h): TimeInterval, get-only.
    open private(set) var timeInterval: TimeInterval

    /// Checked against usernotifications/untimeintervalnotificationtrigger/init(timeinterval:repeats:)
    /// (developer.apple.com, UNNotificationTrigger.h): labels and types.
    public convenience init(timeInterval: TimeInterval, repeats: Bool) {
        self.init(interval: timeInterval, repeats: repeats)
    }

    init(interval: TimeInterval, repeats: Bool) {
        timeInterval = interval
        super.init(repeats: repeats)
    }
}

/// Mirrors `UNNotificationRequest`.
/// Checked against usernotifications/unnotificationrequest (developer.apple.com, UNNotificationRequest.h): open
/// NSObject subclass; iOS 10, macOS 10.14, tvOS 10, watchOS 3.
open class UNNotificationRequest: NSObject, @unchecked Sendable {
    /// Checked against usernotifications/unnotificationrequest/identifier (developer.apple.com,
    /// UNNotificationRequest.h): String, get-only.
    open private(set) var identifier: String
    /// Checked against usernotifications/unnotificationrequest/content (developer.apple.com, UNNotificationRequest.h):
    /// UNNotificationContent, get-only (Apple's is `@NSCopying`).
    open private(set) var content: UNNotificationContent
    /// Checked against usernotifications/unnotificationrequest/trigger (developer.apple.com, UNNotificationRequest.h):
    /// optional UNNotificationTrigger, get-only.
    open private(set) var trigger: UNNotificationTrigger?

    /// Checked against usernotifications/unnotificationrequest/init(identifier:content:trigger:) (developer.apple.com,
    /// UNNotificationRequest.h): labels, types, optional trigger.
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
/// Checked against usernotifications/unnotification (developer.apple.com, UNNotification.h): open NSObject subclass;
/// iOS 10, macOS 10.14, tvOS 10, watchOS 3.
open class UNNotification: NSObject, @unchecked Sendable {
    /// Checked against usernotifications/unnotification/date (developer.apple.com, UNNotification.h): Date, get-only.
    open private(set) var date: Date
    /// Checked against usernotifications/unnotification/request (developer.apple.com, UNNotification.h):
    /// UNNotificationRequest, get-only.
    open private(set) var request: UNNotificationRequest

    /// Stand-in only: the system makes notifications.
    public init(standInRequest request: UNNotificationRequest, date: Date) {
        self.request = request
        self.date = date
        super.init()
    }
}

/// Mirrors `UNNotificationResponse`.
/// Checked against usernotifications/unnotificationresponse (developer.apple.com, UNNotificationResponse.h): iOS 10,
/// macOS 10.14, watchOS 3; tvOS unavailable.
@available(iOS 10, macOS 10.14, watchOS 3, *)
@available(tvOS, unavailable)
open class UNNotificationResponse: NSObject, @unchecked Sendable {
    /// Checked against usernotifications/unnotificationresponse/notification (developer.apple.com,
    /// UNNotificationResponse.h): UNNotification, get-only.
    open private(set) var notification: UNNotification
    /// Checked against usernotifications/unnotificationresponse/actionidentifier (developer.apple.com,
    /// UNNotificationResponse.h): String, get-only.
    open private(set) var actionIdentifier: String

    /// Stand-in only: the system makes responses.
    public init(standInNotification notification: UNNotification, actionIdentifier: String) {
        self.notification = notification
        self.actionIdentifier = actionIdentifier
        super.init()
    }
}

/// Mirrors `UNTextInputNotificationResponse`.
/// Checked against usernotifications/untextinputnotificationresponse (developer.apple.com, UNNotificationResponse.h):
/// iOS 10, macOS 10.14, watchOS 3; tvOS unavailable.
@available(iOS 10, macOS 10.14, watchOS 3, *)
@available(tvOS, unavailable)
open class UNTextInputNotificationResponse: UNNotificationResponse, @unchecked Sendable {
    /// Checked against usernotifications/untextinputnotificationresponse/usertext (developer.apple.com,
    /// UNNotificationResponse.h): String, get-only.
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
