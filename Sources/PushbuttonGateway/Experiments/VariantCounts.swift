/// One arm of an experiment, counted for one metric: `trials` are the notifications that could have been
/// tapped (delivered, or displayed where display receipts exist), `successes` the taps the metric counts
/// (one button, any button, the body, or a dismissal).
struct VariantCounts: Sendable, Equatable {
    /// The variant's name as the campaign's header gives it ("A", "B", "holdout").
    var name: String
    /// Deliveries (or displays) to the arm.
    var trials: Int
    /// Of those, the ones with the metric's tap.
    var successes: Int

    init(name: String, trials: Int, successes: Int) {
        self.name = name
        self.trials = trials
        self.successes = successes
    }
}
