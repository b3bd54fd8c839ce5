/// A button a payload defines itself, for apps that want buttons without shipping a new build.
///
/// The device registers the button set as a category whose identifier is derived from the set
/// (``DynamicCategories/identifier(for:)``), so identical sets share one category.
public struct DynamicButton: Sendable, Hashable {
    /// The action identifier the device reports when the button is tapped; unique within the payload.
    public var identifier: String
    /// The button's text, as is (dynamic buttons are not localized).
    public var title: String
    /// `foreground`, `destructive`, `authenticationRequired`, as for a manifest action.
    public var options: ActionOptions

    /// Creates a button; with no options it runs in the background, unauthenticated.
    public init(_ identifier: String, title: String, options: ActionOptions = []) {
        self.identifier = identifier
        self.title = title
        self.options = options
    }

    /// The button as an action of the derived category.
    public var action: Action { Action(identifier, title: .literal(title), options: options) }
}
