import Foundation

/// Mirrors `UNNotificationActionIcon` (iOS 15+).
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
open class UNNotificationAction: NSObject, @unchecked Sendable {
    open private(set) var identifier: String
    open private(set) var title: String
    open private(set) var options: UNNotificationActionOptions
    open private(set) var icon: UNNotificationActionIcon?

    init(
        identifier: String, title: String, options: UNNotificationActionOptions, standInIcon: UNNotificationActionIcon?
    ) {
        self.identifier = identifier
        self.title = title
        self.options = options
        self.icon = standInIcon
        super.init()
    }

    public convenience init(identifier: String, title: String, options: UNNotificationActionOptions = []) {
        self.init(identifier: identifier, title: title, options: options, standInIcon: nil)
    }

    public convenience init(
        identifier: String, title: String, options: UNNotificationActionOptions = [], icon: UNNotificationActionIcon?
    ) {
        self.init(identifier: identifier, title: title, options: options, standInIcon: icon)
    }
}

/// Mirrors `UNTextInputNotificationAction`.
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
open class UNNotificationCategory: NSObject, @unchecked Sendable {
    open private(set) var identifier: String
    open private(set) var actions: [UNNotificationAction]
    open private(set) var intentIdentifiers: [String]
    open private(set) var hiddenPreviewsBodyPlaceholder: String
    open private(set) var categorySummaryFormat: String
    open private(set) var options: UNNotificationCategoryOptions

    init(
        identifier: String, actions: [UNNotificationAction], intentIdentifiers: [String], placeholder: String,
        summaryFormat: String, options: UNNotificationCategoryOptions
    ) {
        self.identifier = identifier
        self.actions = actions
        self.intentIdentifiers = intentIdentifiers
        hiddenPreviewsBodyPlaceholder = placeholder
        categorySummaryFormat = summaryFormat
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

    public convenience init(
        identifier: String, actions: [UNNotificationAction], intentIdentifiers: [String],
        hiddenPreviewsBodyPlaceholder: String, options: UNNotificationCategoryOptions = []
    ) {
        self.init(
            identifier: identifier, actions: actions, intentIdentifiers: intentIdentifiers,
            placeholder: hiddenPreviewsBodyPlaceholder, summaryFormat: "", options: options)
    }

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
