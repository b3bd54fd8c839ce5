extension Payload {
    /// Adds an action to run when `button` is tapped (after any already added for it).
    public mutating func addAction(_ action: ActionSpec, forButton button: String) {
        var actions = self.actions ?? PayloadActions()
        actions.buttons[button, default: []].append(action)
        self.actions = actions
    }

    /// Adds an action to run when the notification's body is tapped.
    public mutating func addBodyAction(_ action: ActionSpec) {
        var actions = self.actions ?? PayloadActions()
        actions.body.append(action)
        self.actions = actions
    }

    /// Adds an action to run when the notification is dismissed (needs a `customDismissAction` category).
    public mutating func addDismissAction(_ action: ActionSpec) {
        var actions = self.actions ?? PayloadActions()
        actions.dismiss.append(action)
        self.actions = actions
    }

    /// Gives the payload its own buttons and names their derived category in `aps.category`.
    public mutating func setDynamicButtons(_ buttons: [DynamicButton]) {
        var actions = self.actions ?? PayloadActions()
        actions.dynamicButtons = buttons
        self.actions = actions
        aps.category = buttons.isEmpty ? nil : DynamicCategories.identifier(for: buttons)
    }
}
