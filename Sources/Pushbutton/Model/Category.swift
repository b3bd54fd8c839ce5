/// A notification category: the set of buttons a notification naming it shows.
public struct Category: Sendable, Hashable, Identifiable {
    /// What the payload's `aps.category` names.
    public var identifier: String
    /// The buttons, in display order. Banners show the first two; the expanded view up to ten.
    public var actions: [Action]
    /// SiriKit intent identifiers the category relates to.
    public var intentIdentifiers: [String]
    /// Text shown instead of the body when the user hides previews.
    public var hiddenPreviewsBodyPlaceholder: LocalizedText?
    /// The summary shown for a group of notifications, e.g. `%u new messages`.
    public var summaryFormat: LocalizedText?
    /// Custom dismiss reporting, CarPlay, hidden-preview title and subtitle, announcement.
    public var options: CategoryOptions

    /// The ``identifier``, for SwiftUI lists.
    public var id: String { identifier }

    /// Creates a category whose buttons are `actions`, in display order.
    public init(
        _ identifier: String, actions: [Action], intentIdentifiers: [String] = [],
        hiddenPreviewsBodyPlaceholder: LocalizedText? = nil, summaryFormat: LocalizedText? = nil,
        options: CategoryOptions = []
    ) {
        self.identifier = identifier
        self.actions = actions
        self.intentIdentifiers = intentIdentifiers
        self.hiddenPreviewsBodyPlaceholder = hiddenPreviewsBodyPlaceholder
        self.summaryFormat = summaryFormat
        self.options = options
    }

    /// The action with this identifier, if the category has it.
    public func action(_ identifier: String) -> Action? {
        actions.first { $0.identifier == identifier }
    }
}
