extension Payload {
    /// Adds an action to run when `button` is tapped (after any already added for it).
    public mutating func addAction(_ action: ActionSpec, forButton button: String) {
        // In place through the storage, and without testing `actions == nil`, which copies the actions.
        let members = uniqueMembers()
        if members.pointee.actions?.buttons[button, default: []].append(action) == nil {
            members.pointee.actions = PayloadActions(buttons: [button: [action]])
        }
    }

    /// Adds an action to run when the notification's body is tapped.
    public mutating func addBodyAction(_ action: ActionSpec) {
        let members = uniqueMembers()
        if members.pointee.actions?.body.append(action) == nil {
            members.pointee.actions = PayloadActions(body: [action])
        }
    }

    /// Adds an action to run when the notification is dismissed (needs a `customDismissAction` category).
    public mutating func addDismissAction(_ action: ActionSpec) {
        let members = uniqueMembers()
        if members.pointee.actions?.dismiss.append(action) == nil {
            members.pointee.actions = PayloadActions(dismiss: [action])
        }
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

    /// Gives the notification media the service extension downloads and attaches, and sets `mutable-content`:
    /// the extension runs only for mutable content.
    public mutating func setMedia(_ media: PayloadMedia?) {
        if actions == nil {
            guard media != nil else { return }
            actions = PayloadActions()
        }
        actions!.media = media
        if media != nil { aps.mutableContent = true }
    }
}
