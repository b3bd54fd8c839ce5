extension Payload {
    /// Adds an action to run when `button` is tapped (after any already added for it).
    public mutating func addAction(_ action: ActionSpec, forButton button: String) {
        if actions == nil { actions = PayloadActions() }
        actions!.buttons[button, default: []].append(action)  // in place: no copy of the dictionary
    }

    /// Adds an action to run when the notification's body is tapped.
    public mutating func addBodyAction(_ action: ActionSpec) {
        if actions == nil { actions = PayloadActions() }
        actions!.body.append(action)
    }

    /// Adds an action to run when the notification is dismissed (needs a `customDismissAction` category).
    public mutating func addDismissAction(_ action: ActionSpec) {
        if actions == nil { actions = PayloadActions() }
        actions!.dismiss.append(action)
    }

    /// Gives the payload its own buttons, names their derived category in `aps.category` and sets
    /// `mutable-content`: on a device the buttons appear only if a Notification Service Extension registers
    /// their category before display, and the extension runs only for mutable content.
    public mutating func setDynamicButtons(_ buttons: [DynamicButton]) {
        if actions == nil { actions = PayloadActions() }
        actions!.dynamicButtons = buttons
        aps.category = buttons.isEmpty ? nil : DynamicCategories.identifier(for: buttons)
        if !buttons.isEmpty { aps.mutableContent = true }
    }
}
