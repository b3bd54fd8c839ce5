import Foundation

/// Mirrors `UNNotificationActionIcon` (iOS 15+).
@available(iOS 15, macOS 12, watchOS 8, *)
@available(tvOS, unavailable)
open class UNNotificationActionIcon: NSObject, @unchecked Sendable {
    /// Stand-in only: which initializer made the icon, and with what name.
    public let standInSystemImageName: String?
    public let standInTemplateImageName: String?

    private init(system: String?, template: String?) {
        standInSystemImageName = system
        standInTemplateImageName = template
        super.init()
    }

    public convenience init(systemImageName: String) { self.init(system: systemImageName, template: nil) }
    public convenience init(templateImageName: String) { self.init(system: nil, template: templateImageName) }
}

/// Mirrors `UNNotificationAction`: `init(identifier:title:options:)` (iOS 10+) and
/// `init(identifier:title:options:icon:)` (iOS 15+).
@available(iOS 10, macOS 10.14, watchOS 3, *)
@available(tvOS, unavailable)
open class UNNotificationAction: NSObject, @unchecked Sendable {
    open private(set) var identifier: String
    open private(set) var title: String
    open private(set) var options: UNNotificationActionOptions
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

    public convenience init(identifier: String, title: String, options: UNNotificationActionOptions = []) {
        self.init(identifier: identifier, title: title, options: options, standInIcon: nil)
    }

    @available(iOS 15, macOS 12, watchOS 8, *)
    public convenience init(
        identifier: String, title: String, options: UNNotificationActionOptions = [], icon: UNNotificationActionIcon?
    ) {
        self.init(identifier: identifier, title: title, options: options, standInIcon: icon)
    }
}

/// Mirrors `UNTextInputNotificationAction`.
@available(iOS 10, macOS 10.14, watchOS 3, *)
@available(tvOS, unavailable)
open class UNTextInputNotificationAction: UNNotificationAction, @unchecked Sendable {
    open private(set) var textInputButtonTitle: String
    open private(set) var textInputPlaceholder: String

    init(
        identifier: String, title: String, options: UNNotificationActionOptions, icon: UNNotificationActionIcon?,
        buttonTitle: String, placeholder: String
    ) {
        textInputButtonTitle = buttonTitle
        textInputPlaceholder = placeholder
        super.init(identifier: identifier, title: title, options: options, standInIcon: icon)
    }

    public convenience init(
        identifier: String, title: String, options: UNNotificationActionOptions = [], textInputButtonTitle: String,
        textInputPlaceholder: String
    ) {
        self.init(
            identifier: identifier, title: title, options: options, icon: nil, buttonTitle: textInputButtonTitle,
            placeholder: textInputPlaceholder)
    }

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
@available(iOS 10, macOS 10.14, watchOS 3, *)
@available(tvOS, unavailable)
open class UNNotificationCategory: NSObject, @unchecked Sendable {
    open private(set) var identifier: String
    open private(set) var actions: [UNNotificationAction]
    open private(set) var intentIdentifiers: [String]
    @available(iOS 11, macOS 10.14, *)
    @available(watchOS, unavailable)
    open var hiddenPreviewsBodyPlaceholder: String { placeholder }
    @available(iOS 12, macOS 10.14, *)
    @available(watchOS, unavailable)
    open var categorySummaryFormat: String { summaryFormat }
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

    public convenience init(
        identifier: String, actions: [UNNotificationAction], intentIdentifiers: [String],
        options: UNNotificationCategoryOptions = []
    ) {
        self.init(
            identifier: identifier, actions: actions, intentIdentifiers: intentIdentifiers, placeholder: "",
            summaryFormat: "", options: options)
    }

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
