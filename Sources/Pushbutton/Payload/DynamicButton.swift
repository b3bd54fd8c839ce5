/// A button a payload defines itself, for apps that want buttons without shipping a new build.
///
/// The device registers the button set as a category whose identifier is derived from the set
/// (``DynamicCategories/identifier(for:)``), so identical sets share one category.
public struct DynamicButton: Sendable, Hashable {
    public var identifier: String
    public var title: String
    public var options: ActionOptions

    public init(_ identifier: String, title: String, options: ActionOptions = []) {
        self.identifier = identifier
        self.title = title
        self.options = options
    }

    /// The button as an action of the derived category.
    public var action: Action { Action(identifier, title: .literal(title), options: options) }
}
