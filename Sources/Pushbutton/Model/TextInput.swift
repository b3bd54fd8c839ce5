/// What a text-input action adds: the send button's title and the field's placeholder.
public struct TextInput: Sendable, Hashable {
    /// The title of the button that sends the typed text.
    public var buttonTitle: LocalizedText
    /// The placeholder shown in the empty text field.
    public var placeholder: LocalizedText

    /// The send button's title iOS-style apps use when none is given.
    public static let defaultButtonTitle: LocalizedText = .localized(
        key: "pushbutton.send", values: BuiltinTranslations.send)

    /// Creates the text input; without a button title the localized "Send" is used.
    public init(buttonTitle: LocalizedText = TextInput.defaultButtonTitle, placeholder: LocalizedText = "") {
        self.buttonTitle = buttonTitle
        self.placeholder = placeholder
    }
}
