/// A notification action: one button.
public struct Action: Sendable, Hashable, Identifiable {
    /// What the app receives when the button is tapped.
    public var identifier: String
    /// The button's title.
    public var title: LocalizedText
    /// Foreground, destructive and authentication-required; none means a background button anyone can tap.
    public var options: ActionOptions
    /// An optional icon (iOS 15 and later).
    public var icon: ActionIcon?
    /// Set for a text-input action: the button opens a text field and the response carries the text.
    public var textInput: TextInput?

    /// The ``identifier``, for SwiftUI lists.
    public var id: String { identifier }

    /// Creates a button; a `textInput` makes it a text-input action (see also ``textInput(_:title:buttonTitle:placeholder:options:icon:)``).
    public init(
        _ identifier: String, title: LocalizedText, options: ActionOptions = [], icon: ActionIcon? = nil,
        textInput: TextInput? = nil
    ) {
        self.identifier = identifier
        self.title = title
        self.options = options
        self.icon = icon
        self.textInput = textInput
    }

    /// A text-input action.
    public static func textInput(
        _ identifier: String, title: LocalizedText, buttonTitle: LocalizedText = TextInput.defaultButtonTitle,
        placeholder: LocalizedText = "", options: ActionOptions = [], icon: ActionIcon? = nil
    ) -> Action {
        Action(
            identifier, title: title, options: options, icon: icon,
            textInput: TextInput(buttonTitle: buttonTitle, placeholder: placeholder))
    }

    /// Whether tapping runs the action without opening the app.
    public var runsInBackground: Bool { !options.contains(.foreground) }
}
