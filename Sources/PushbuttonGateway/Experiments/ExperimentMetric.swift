import PushbuttonStore

/// What an experiment compares, per delivered notification: the devices that tapped one button, any
/// button, the body, or dismissed it.
enum ExperimentMetric: Sendable, Hashable {
    case button(String)
    case anyButton
    case body
    case dismiss

    /// `button:<id>`, `any_button`, `body` or `dismiss`; `nil` for anything else.
    init?(_ text: String) {
        switch text {
        case "any_button": self = .anyButton
        case "body": self = .body
        case "dismiss": self = .dismiss
        default:
            guard text.hasPrefix("button:"), text.count > 7 else { return nil }
            self = .button(String(text.dropFirst(7)))
        }
    }

    /// As the header spells it.
    var text: String {
        switch self {
        case .button(let id): "button:\(id)"
        case .anyButton: "any_button"
        case .body: "body"
        case .dismiss: "dismiss"
        }
    }

    /// The devices of `tally` that did it.
    func successes(_ tally: ExperimentTally) -> Int {
        switch self {
        case .button(let id): tally.buttonTaps[id] ?? 0
        case .anyButton: tally.anyButton
        case .body: tally.bodyTaps
        case .dismiss: tally.dismisses
        }
    }
}
