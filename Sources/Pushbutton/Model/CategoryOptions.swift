/// How a category behaves. Raw values match `UNNotificationCategoryOptions` in Apple's headers.
public struct CategoryOptions: OptionSet, Sendable, Hashable {
    /// The bits, as in `UNNotificationCategoryOptions`.
    public let rawValue: UInt
    /// Wraps raw bits; unknown bits are kept.
    public init(rawValue: UInt) { self.rawValue = rawValue }

    /// Report dismissals to the app (the dismiss action identifier).
    public static let customDismissAction = CategoryOptions(rawValue: 1 << 0)
    /// Show the notification in CarPlay.
    public static let allowInCarPlay = CategoryOptions(rawValue: 1 << 1)
    /// Show the title when previews are hidden.
    public static let hiddenPreviewsShowTitle = CategoryOptions(rawValue: 1 << 2)
    /// Show the subtitle when previews are hidden.
    public static let hiddenPreviewsShowSubtitle = CategoryOptions(rawValue: 1 << 3)
    /// Let Siri announce the notification (deprecated by Apple in iOS 15; the user decides now).
    public static let allowAnnouncement = CategoryOptions(rawValue: 1 << 4)

    /// The manifest's names, in display order.
    public static let names: [(name: String, option: CategoryOptions)] = [
        ("customDismissAction", .customDismissAction), ("allowInCarPlay", .allowInCarPlay),
        ("hiddenPreviewsShowTitle", .hiddenPreviewsShowTitle),
        ("hiddenPreviewsShowSubtitle", .hiddenPreviewsShowSubtitle), ("allowAnnouncement", .allowAnnouncement),
    ]

    /// The manifest names of the options that are set.
    public var nameList: [String] { Self.names.filter { contains($0.option) }.map(\.name) }
}
