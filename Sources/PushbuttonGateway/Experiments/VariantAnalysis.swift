/// One arm's numbers in an analysis: its counts, its rate and the rate's Wilson interval.
struct VariantAnalysis: Sendable, Equatable, Codable {
    /// The variant's name.
    var name: String
    /// Deliveries (or displays) to the arm.
    var trials: Int
    /// Of those, the ones with the metric's tap.
    var successes: Int
    /// successes / trials; `nil` before the first trial.
    var rate: Double?
    /// Wilson's score interval at the analysis' confidence; `nil` before the first trial.
    var interval: ProportionInterval?
    /// Why `rate` or `interval` is missing, in words.
    var note: String?

    enum CodingKeys: String, CodingKey {
        case name, trials, successes, rate, interval, note
    }

    init(_ counts: VariantCounts, z: Double) {
        name = counts.name
        trials = counts.trials
        successes = counts.successes
        if counts.trials > 0, counts.successes >= 0, counts.successes <= counts.trials {
            rate = Double(counts.successes) / Double(counts.trials)
            interval = ProportionTests.wilson(successes: counts.successes, trials: counts.trials, z: z)
        } else if counts.trials <= 0 {
            note = "no trials yet"
        } else {
            note = "counts are inconsistent: \(counts.successes) successes of \(counts.trials) trials"
        }
    }

    var counts: VariantCounts { VariantCounts(name: name, trials: trials, successes: successes) }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(trials, forKey: .trials)
        try container.encode(successes, forKey: .successes)
        try container.encode(rate, forKey: .rate)
        try container.encode(interval, forKey: .interval)
        try container.encode(note, forKey: .note)
    }
}
