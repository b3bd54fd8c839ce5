// A Linux-only stand-in for the parts of Apple's UserNotifications framework that Pushbutton's bridge
// uses, so the bridge is compiled and tested here. Names, signatures and raw values follow Apple's
// documentation (developer.apple.com/documentation/usernotifications) and headers (UNNotificationAction.h,
// UNNotificationCategory.h, UNUserNotificationCenter.h). Members whose names start with `standIn` are not
// Apple API: they let tests play the system's part. The classes are `@unchecked Sendable` because, as the
// system's objects, they are not mutated once made (only the center's state changes, under its lock).
//
// Availability is Apple's, from the headers and developer.apple.com, so that scripts/availability_check.py
// catches a bridge call that a declared platform lacks: tvOS has no actions, categories or responses; macOS
// lacks the CarPlay and announcement options; watchOS lacks the hidden-preview options, the placeholder, the
// summary format and the initializers that take them.

/// Mirrors `UNNotificationActionOptions` (UNNotificationAction.h).
@available(iOS 10, macOS 10.14, watchOS 3, *)
@available(tvOS, unavailable)
public struct UNNotificationActionOptions: OptionSet, Sendable {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }
    public static let authenticationRequired = UNNotificationActionOptions(rawValue: 1 << 0)
    public static let destructive = UNNotificationActionOptions(rawValue: 1 << 1)
    public static let foreground = UNNotificationActionOptions(rawValue: 1 << 2)
}

/// Mirrors `UNNotificationCategoryOptions` (UNNotificationCategory.h).
@available(iOS 10, macOS 10.14, watchOS 3, *)
@available(tvOS, unavailable)
public struct UNNotificationCategoryOptions: OptionSet, Sendable {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }
    public static let customDismissAction = UNNotificationCategoryOptions(rawValue: 1 << 0)
    @available(macOS, unavailable)
    public static let allowInCarPlay = UNNotificationCategoryOptions(rawValue: 1 << 1)
    @available(iOS 11, macOS 10.14, *)
    @available(watchOS, unavailable)
    public static let hiddenPreviewsShowTitle = UNNotificationCategoryOptions(rawValue: 1 << 2)
    @available(iOS 11, macOS 10.14, *)
    @available(watchOS, unavailable)
    public static let hiddenPreviewsShowSubtitle = UNNotificationCategoryOptions(rawValue: 1 << 3)
    @available(iOS, introduced: 13, deprecated: 15, message: "Announcement option is ignored")
    @available(watchOS, introduced: 6, deprecated: 7, message: "Announcement option is ignored")
    @available(macOS, unavailable)
    public static let allowAnnouncement = UNNotificationCategoryOptions(rawValue: 1 << 4)
}

/// Mirrors `UNAuthorizationOptions` (UNUserNotificationCenter.h).
@available(iOS 10, macOS 10.14, watchOS 3, tvOS 10, *)
public struct UNAuthorizationOptions: OptionSet, Sendable {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }
    public static let badge = UNAuthorizationOptions(rawValue: 1 << 0)
    public static let sound = UNAuthorizationOptions(rawValue: 1 << 1)
    public static let alert = UNAuthorizationOptions(rawValue: 1 << 2)
    @available(macOS, unavailable)
    public static let carPlay = UNAuthorizationOptions(rawValue: 1 << 3)
    @available(iOS 12, macOS 10.14, watchOS 5, tvOS 12, *)
    public static let criticalAlert = UNAuthorizationOptions(rawValue: 1 << 4)
    @available(iOS 12, macOS 10.14, watchOS 5, tvOS 12, *)
    public static let providesAppNotificationSettings = UNAuthorizationOptions(rawValue: 1 << 5)
    @available(iOS 12, macOS 10.14, watchOS 5, tvOS 12, *)
    public static let provisional = UNAuthorizationOptions(rawValue: 1 << 6)
}

/// Mirrors `UNNotificationPresentationOptions` (UNUserNotificationCenter.h).
@available(iOS 10, macOS 10.14, watchOS 3, tvOS 10, *)
public struct UNNotificationPresentationOptions: OptionSet, Sendable {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }
    public static let badge = UNNotificationPresentationOptions(rawValue: 1 << 0)
    public static let sound = UNNotificationPresentationOptions(rawValue: 1 << 1)
    @available(iOS, introduced: 10, deprecated: 14, message: "Use .list and .banner")
    @available(macOS, introduced: 10.14, deprecated: 11, message: "Use .list and .banner")
    @available(watchOS, introduced: 3, deprecated: 7, message: "Use .list and .banner")
    @available(tvOS, introduced: 10, deprecated: 14, message: "Use .list and .banner")
    public static let alert = UNNotificationPresentationOptions(rawValue: 1 << 2)
    @available(iOS 14, macOS 11, watchOS 7, tvOS 14, *)
    public static let list = UNNotificationPresentationOptions(rawValue: 1 << 3)
    @available(iOS 14, macOS 11, watchOS 7, tvOS 14, *)
    public static let banner = UNNotificationPresentationOptions(rawValue: 1 << 4)
}

/// Mirrors `UNNotificationDefaultActionIdentifier`: the user opened the notification.
@available(iOS 10, macOS 10.14, watchOS 3, *)
@available(tvOS, unavailable)
public let UNNotificationDefaultActionIdentifier = "com.apple.UNNotificationDefaultActionIdentifier"
/// Mirrors `UNNotificationDismissActionIdentifier`: the user dismissed it (only with `customDismissAction`).
@available(iOS 10, macOS 10.14, watchOS 3, *)
@available(tvOS, unavailable)
public let UNNotificationDismissActionIdentifier = "com.apple.UNNotificationDismissActionIdentifier"
