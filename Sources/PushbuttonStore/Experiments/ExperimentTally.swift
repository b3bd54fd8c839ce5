/// One variant's counts in one phase of an experiment, from one grouped query over its recipients, their
/// deliveries, display receipts and taps (devices, not events: a device tapping twice counts once).
public struct ExperimentTally: Sendable, Hashable {
    /// The variant; `nil` for the holdout and the waiting.
    public var variant: String?
    /// The phase.
    public var phase: ExperimentPhase
    /// Recipients.
    public var recipients: Int
    /// Recipients APNs accepted.
    public var delivered: Int
    /// Devices that reported the notification displayed (display receipts).
    public var displayed: Int
    /// Devices that tapped a button, by button identifier.
    public var buttonTaps: [String: Int]
    /// Devices that tapped any button.
    public var anyButton: Int
    /// Devices that tapped the body.
    public var bodyTaps: Int
    /// Devices that dismissed it.
    public var dismisses: Int

    /// A tally with every field given.
    public init(
        variant: String?, phase: ExperimentPhase, recipients: Int = 0, delivered: Int = 0, displayed: Int = 0,
        buttonTaps: [String: Int] = [:], anyButton: Int = 0, bodyTaps: Int = 0, dismisses: Int = 0
    ) {
        self.variant = variant
        self.phase = phase
        self.recipients = recipients
        self.delivered = delivered
        self.displayed = displayed
        self.buttonTaps = buttonTaps
        self.anyButton = anyButton
        self.bodyTaps = bodyTaps
        self.dismisses = dismisses
    }
}
