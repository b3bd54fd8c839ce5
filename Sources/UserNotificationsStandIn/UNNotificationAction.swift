import Foundation

/// Mirrors `UNNotificationActionIcon` (iOS 15+).
///
/// Checked against developer.apple.com/documentation/usernotifications/unnotificationactionicon
/// (UNNotificationAction.h): iOS 15, macOS 12, watchOS 8 and tvOS 15 (the stand-in had tvOS unavailable).
@available(iOS 15, macOS 12, watchOS 8, tvOS 15, *)
open class UNNotificationActionIcon: NSObject, @unchecked Sendable {
    /// Stand-in only: which initializer made the icon, and with what name.
    public let standInSystemImageName: String?
    public let standInTemplateImageName: String?

    private init(system: String?, template: String?) {
        standInSystemImageName = system
        standInTemplateImageName = template
        super.init()
    }

    /// Checked against usernotifications/unnotificationactionicon/init(systemimagename:) (developer.apple.com,
    /// UNNotificationAction.h): label and type.
    public convenience init(systemImageName: String) { self.init(system: systemImageName, template: nil) }
    /// Checked against usernotifications/unnotificationactionicon/init(templateimagename:) (developer.apple.com,
    /// UNNotificationAction.h): label and type.
    public convenience init(templateImageName: String) { self.init(system: nil, template: templateImageName) }
}

/// Mirrors `UNNotificationAction`: `init(identifier:title:options:)` (iOS 10+) and
/// `init(identifier:title:options:icon:)` (iOS 15+).
///
/// Checked against usernotifications/unnotificationaction (developer.apple.com, UNNotificationAction.h): iOS 10, macOS
/// 10.14, watchOS 3; tvOS unavailable.
@available(iOS 10, macOS 10.14, watchOS 3, *)
@available(tvOS, unavailable)
open class UNNotificationAction: NSObject, @unchecked Sendable {
    /// Checked against usernotifications/unnotificationaction/identifier (developer.apple.com, UNNotificationAction.h):
    /// String, get-only.
    open private(set) var identifier: String
    /// Checked against usernotifications/unnotificationaction/title (developer.apple.com, UNNotificationAction.h):
    /// String, get-only.
    open private(set) var title: String
    /// Checked against usernotifications/unnotificationaction/options (developer.apple.com, UNNotificationAction.h):
    /// UNNotificationActionOptions, get-only.
    open private(set) var options: UNNotificationActionOptions
    /// Checked against usernotifications/unnotificationaction/icon (developer.apple.com, UNNotificationAction.h):
    /// optional, get-only (Apple's is `@NSCopying`); iOS 15, macOS 12, watchOS 8.
    @available(iOS 15, macOS 12, watchOS 8, *)
    open var icon: UNNotificationActionIcon? { standInIcon as? UNNotificationActionIcon }
    private let standInIcon: NSObject?

    init(
        identifier: String, title: String, options: UNNotificationActionOptions, standInIcon: UNNotificationActionIcon?
    ) {
        self.identifier = identifier
        self.title = title
        self.options = options
        self.standInIcon = standInIcon
        super.init()
    }

    /// Checked against usernotifications/unnotificationaction/init(identifier:title:options:) (developer.apple.com,
    /// UNNotificationAction.h): labels, types, `options` default `[]`.
    public convenience init(identifier: String, title: String, options: UNNotificationActionOptions = []) {
        self.init(identifier: identifier, title: title, options: options, standInIcon: nil)
    }

    /// Checked against usernotifications/unnotificationaction/init(identifier:title:options:icon:)
    /// (developer.apple.com, UNNotificationAction.h): labels, optional icon without default; iOS 15, macOS 12, watchOS
    /// 8.
    @available(iOS 15, macOS 12, watchOS 8, *)
    public convenience init(
        identifier: String, title: String, options: UNNotificationActionOptions = [], icon: UNNotificationActionIcon?
    ) {
        self.init(identifier: identifier, title: title, options: options, standInIcon: icon)
    }
}

/// Mirrors `UNTextInputNotificationAction`.
/// Checked against usernotifications/untextinputnotificationaction (developer.apple.com, UNNotificationAction.h): iOS
/// 10, macOS 10.14, watchOS 3; tvOS unavailable.
@available(iOS 10, macOS 10.14, watchOS 3, *)
@available(tvOS, unavailable)
open class UNTextInputNotificationAction: UNNotificationAction, @unchecked Sendable {
    /// Checked against usernotifications/untextinputnotificationaction/textinputbuttontitle (developer.apple.com,
    /// UNNotificationAction.h): String, get-only.
    open private(set) var textInputButtonTitle: String
    /// Checked against usernotifications/untextinputnotificationaction/textinputplaceholder (developer.apple.com,
    /// UNNotificationAction.h): String, get-only.
    open private(set) var textInputPlaceholder: String

    init(
        identifier: String, title: String, options: UNNotificationActionOptions, icon: UNNotificationActionIcon?,
        buttonTitle: String, placeholder: String
    ) {
        textInputButtonTitle = buttonTitle
        textInputPlaceholder = placeholder
        super.init(identifier: identifier, title: title, options: options, standInIcon: icon)
    }

    /// Checked against
    /// usernotifications/untextinputnotificationaction/init(identifier:title:options:textinputbuttontitle:textinputplaceholder:)
    /// (developer.apple.com, UNNotificationAction.h): labels, types, `options` default `[]`.
    public convenience init(
        identifier: String, title: String, options: UNNotificationActionOptions = [], textInputButtonTitle: String,
        textInputPlaceholder: String
    ) {
        self.init(
            identifier: identifier, title: title, options: options, icon: nil, buttonTitle: textInputButtonTitle,
            placeholder: textInputPlaceholder)
    }

    /// Checked against
    /// usernotifications/untextinputnotificationaction/init(identifier:title:options:icon:textinputbuttontitle:textinputplaceholder:)
    /// (developer.apple.com, UNNotificationAction.h): labels, optional icon; iOS 15, macOS 12, watchOS 8.
    @available(iOS 15, macOS 12, watchOS 8, *)
    public convenience init(
        identifier: String, title: String, options: UNNotificationActionOptions = [], icon: UNNotificationActionIcon?,
        textInputButtonTitle: String, textInputPlaceholder: String
    ) {
        self.init(
            identifier: identifier, title: title, options: options, icon: icon, buttonTitle: textInputButtonTitle,
            placeholder: textInputPlaceholder)
    }
}

/// Mirrors `UNNotificationCategory` and its three initializers (iOS 10, 11 and 12).
/// Checked against usernotifications/unnotificationcategory (developer.apple.com, UNNotificationCategory.h): iOS 10,
/// macOS 10.14, watchOS 3; tvOS unavailable.
@available(iOS 10, macOS 10.14, watchOS 3, *)
@available(tvOS, unavailable)
open class UNNotificationCategory: NSObject, @unchecked Sendable {
    /// Checked against usernotifications/unnotificationcategory/identifier (developer.apple.com,
    /// UNNotificationCategory.h): String, get-only.
    open private(set) var identifier: String
    /// Checked against usernotifications/unnotificationcategory/actions (developer.apple.com,
    /// UNNotificationCategory.h): [UNNotificationAction], get-only.
    open private(set) var actions: [UNNotificationAction]
    /// Checked against usernotifications/unnotificationcategory/intentidentifiers (developer.apple.com,
    /// UNNotificationCategory.h): [String], get-only.
    open private(set) var intentIdentifiers: [String]
    /// Checked against usernotifications/unnotificationcategory/hiddenpreviewsbodyplaceholder (developer.apple.com,
    /// UNNotificationCategory.h): String, get-only; iOS 11, macOS 10.14; watchOS unavailable.
    @available(iOS 11, macOS 10.14, *)
    @available(watchOS, unavailable)
    open var hiddenPreviewsBodyPlaceholder: String { placeholder }
    /// Checked against usernotifications/unnotificationcategory/categorysummaryformat (developer.apple.com,
    /// UNNotificationCategory.h): String, get-only; iOS 12, macOS 10.14; watchOS unavailable.
    @available(iOS 12, macOS 10.14, *)
    @available(watchOS, unavailable)
    open var categorySummaryFormat: String { summaryFormat }
    /// Checked against usernotifications/unnotificationcategory/options (developer.apple.com,
    /// UNNotificationCategory.h): UNNotificationCategoryOptions, get-only.
    open private(set) var options: UNNotificationCategoryOptions
    private let placeholder: String
    private let summaryFormat: String

    init(
        identifier: String, actions: [UNNotificationAction], intentIdentifiers: [String], placeholder: String,
        summaryFormat: String, options: UNNotificationCategoryOptions
    ) {
        self.identifier = identifier
        self.actions = actions
        self.intentIdentifiers = intentIdentifiers
        self.placeholder = placeholder
        self.summaryFormat = summaryFormat
        self.options = options
        super.init()
    }

    /// Checked against usernotifications/unnotificationcategory/init(identifier:actions:intentidentifiers:options:)
    /// (developer.apple.com, UNNotificationCategory.h): labels, types, `options` default `[]`; iOS 10, macOS 10.14,
    /// watchOS 3.
    public convenience init(
        identifier: String, actions: [UNNotificationAction], intentIdentifiers: [String],
        options: UNNotificationCategoryOptions = []
    ) {
        self.init(
            identifier: identifier, actions: actions, intentIdentifiers: intentIdentifiers, placeholder: "",
            summaryFormat: "", options: options)
    }

    /// Checked against
    /// usernotifications/unnotificationcategory/init(identifier:actions:intentidentifiers:hiddenpreviewsbodyplaceholder:options:)
    /// (developer.apple.com, UNNotificationCategory.h): non-optional placeholder; iOS 11, macOS 10.14; watchOS
    /// unavailable.
    @available(iOS 11, macOS 10.14, *)
    @available(watchOS, unavailable)
    public convenience init(
        identifier: String, actions: [UNNotificationAction], intentIdentifiers: [String],
        hiddenPreviewsBodyPlaceholder: String, options: UNNotificationCategoryOptions = []
    ) {
        self.init(
            identifier: identifier, actions: actions, intentIdentifiers: intentIdentifiers,
            placeholder: hiddenPreviewsBodyPlaceholder, summaryFormat: "", options: options)
    }

    /// Checked against
    /// usernotifications/unnotificationcategory/init(identifier:actions:intentidentifiers:hiddenpreviewsbodyplaceholder:categorysummaryformat:options:)
    /// (developer.apple.com, UNNotificationCategory.h): both strings optional; iOS 12, macOS 10.14; watchOS
    /// unavailable.
    @available(iOS 12, macOS 10.14, *)
    @available(watchOS, unavailable)
    public convenience init(
        identifier: String, actions: [UNNotificationAction], intentIdentifiers: [String],
        hiddenPreviewsBodyPlaceholder: String?, categorySummaryFormat: String?,
        options: UNNotificationCategoryOptions = []
    ) {
        self.init(
            identifier: identifier, actions: actions, intentIdentifiers: intentIdentifiers,
            placeholder: hiddenPreviewsBodyPlaceholder ?? "", summaryFormat: categorySummaryFormat ?? "",
            options: options)
    }
}
