import Pushbutton

/// What the router did with one response, step by step.
public struct RoutingReport: Sendable, Hashable {
    /// One thing the router ran, or decided not to run.
    public struct Step: Sendable, Hashable {
        /// What kind of step it was.
        public enum Kind: Sendable, Hashable {
            /// A built-in action from the payload (`pushbutton.callback`, …).
            case builtin(String)
            /// An app-defined action from the payload's per-button actions.
            case payloadAction(String)
            /// The app-defined action matching the button, with `action_args`.
            case matchingAction(String)
            /// A general response handler the app installed.
            case responseHandler(Int)
        }

        /// How it ended.
        public enum Outcome: Sendable, Hashable {
            case succeeded
            /// It failed: why, with a code to branch on and the error it threw, if any.
            case failed(RoutingFailure)
            /// It was not run, and why (e.g. a URL in the background).
            case refused(String)
            /// No action is registered under that name.
            case unknownAction
            /// Still running when the deadline passed.
            case cutOff
        }

        public var kind: Kind
        public var arguments: [String: JSONValue]
        public var outcome: Outcome

        public init(kind: Kind, arguments: [String: JSONValue], outcome: Outcome) {
            self.kind = kind
            self.arguments = arguments
            self.outcome = outcome
        }
    }

    public var response: NotificationResponse
    public var situation: Situation
    /// `nil` when the button is not part of the notification's registered category.
    public var categoryIdentifier: String?
    public var steps: [Step]
    /// Notes that are not steps: an unknown button, an unreadable payload.
    public var notes: [String]
    /// How long after the response the completion handler was called.
    public var completedAfter: Duration
    /// Whether the deadline, not the handlers finishing, called it.
    public var completedByDeadline: Bool

    public init(
        response: NotificationResponse, situation: Situation, categoryIdentifier: String?, steps: [Step],
        notes: [String],
        completedAfter: Duration, completedByDeadline: Bool
    ) {
        self.response = response
        self.situation = situation
        self.categoryIdentifier = categoryIdentifier
        self.steps = steps
        self.notes = notes
        self.completedAfter = completedAfter
        self.completedByDeadline = completedByDeadline
    }

    /// The steps cut off by the deadline.
    public var cutOff: [Step] { steps.filter { $0.outcome == .cutOff } }
}
