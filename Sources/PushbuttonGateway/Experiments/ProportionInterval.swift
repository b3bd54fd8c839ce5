/// A confidence interval for a proportion or a difference of proportions, as fractions (0.031 is 3.1 points).
struct ProportionInterval: Sendable, Equatable, Codable {
    /// The lower bound.
    var lower: Double
    /// The upper bound.
    var upper: Double
}
