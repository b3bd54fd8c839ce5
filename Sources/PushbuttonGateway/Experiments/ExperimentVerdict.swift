/// What an experiment decided, once: the winner if there is one, the variant sent to the rest of the audience,
/// and why, in words. Decodable too, so a stored verdict reads back.
struct ExperimentVerdict: Sendable, Equatable, Codable {
    /// The variant that won, or `nil` when none did (not enough data, or no significant difference).
    var winner: String?
    /// The variant sent to the rest: the winner, or the experiment's default variant.
    var rolledOut: String
    /// Whether the winner's difference is statistically significant (always `true` when there is a winner).
    var significant: Bool
    /// The decision in one sentence, e.g. "B: +3.1 points on 'add_to_cart' (95% CI +1.2 to +5.0), p = 0.002".
    var reason: String

    enum CodingKeys: String, CodingKey {
        case winner
        case rolledOut = "rolled_out"
        case significant, reason
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(winner, forKey: .winner)
        try container.encode(rolledOut, forKey: .rolledOut)
        try container.encode(significant, forKey: .significant)
        try container.encode(reason, forKey: .reason)
    }
}
