extension APS {
    /// Whether there is an alert, told from the enum's case: `alert != nil` copies the alert (a retain of each
    /// of its strings) to compare it.
    var hasAlert: Bool {
        switch alert {
        case .none: false
        case .some: true
        }
    }

    /// Whether there is a sound, without copying it.
    var hasSound: Bool {
        switch sound {
        case .none: false
        case .some: true
        }
    }
}

extension Payload {
    /// Whether there are Pushbutton actions, without copying them (as `actions != nil` does).
    var hasActions: Bool {
        switch actions {
        case .none: false
        case .some: true
        }
    }
}
