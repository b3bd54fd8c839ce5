/// One treatment against the control: the difference of their rates with its interval, the test and its
/// p-value (raw and adjusted for the number of comparisons), and the smallest difference the arms can detect.
struct ExperimentComparison: Sendable, Equatable, Codable {
    /// Which test gave the p-value.
    enum Test: String, Sendable, Equatable, Codable {
        /// The two-proportion z-test with the pooled standard error (every expected count ≥ 5).
        case zTestPooled = "z_test_pooled"
        /// Fisher's exact test, two-sided (some expected count < 5: the normal approximation is not trusted).
        case fisherExact = "fisher_exact"
        /// No test: an arm has no trials yet.
        case none
    }

    /// The treatment's name.
    var variant: String
    /// The control's name.
    var control: String
    /// Treatment rate − control rate (0.031 is +3.1 points); `nil` while an arm has no trials.
    var difference: Double?
    /// Newcombe's hybrid score interval of the difference (method 10 of Newcombe 1998).
    var interval: ProportionInterval?
    /// The test used.
    var test: Test
    /// The z statistic, when the z-test was used.
    var z: Double?
    /// The two-sided p-value of this comparison alone.
    var pValue: Double?
    /// The p-value after the correction for several comparisons (Holm); equal to `pValue` with one treatment.
    var pValueAdjusted: Double?
    /// The smallest rise over the control's rate these arm sizes detect with 80% power at the analysis' α,
    /// Bonferroni-divided by the number of comparisons (Holm's strictest step); `nil` when no rise up to 100% is
    /// detectable or an arm is empty.
    var minimumDetectableEffect: Double?
    /// Why a number is missing, in words.
    var note: String?

    enum CodingKeys: String, CodingKey {
        case variant, control, difference, interval, test, z
        case pValue = "p_value"
        case pValueAdjusted = "p_value_adjusted"
        case minimumDetectableEffect = "minimum_detectable_effect"
        case note
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(variant, forKey: .variant)
        try container.encode(control, forKey: .control)
        try container.encode(difference.finite, forKey: .difference)
        try container.encode(interval, forKey: .interval)
        try container.encode(test, forKey: .test)
        try container.encode(z.finite, forKey: .z)
        try container.encode(pValue.finite, forKey: .pValue)
        try container.encode(pValueAdjusted.finite, forKey: .pValueAdjusted)
        try container.encode(minimumDetectableEffect.finite, forKey: .minimumDetectableEffect)
        try container.encode(note, forKey: .note)
    }
}
