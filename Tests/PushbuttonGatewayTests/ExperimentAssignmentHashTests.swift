import Foundation
import Pushbutton
import Testing

@testable import PushbuttonGateway

/// The assignment's per-page prefix and byte-wise lowercasing (issue 36's overhead) give the buckets the
/// documented rule gives: FNV-1a of `"<salt>\0<experiment>\0<lowercased token>"`, then `fmix64`, modulo 10,000.
@Suite(.timeLimit(.minutes(1)))
struct ExperimentAssignmentHashTests {
    /// The rule as documented, hashed in one piece.
    static func documented(salt: String, experiment: String, token: String) -> Int {
        let bytes = Array((salt + "\u{0}" + experiment + "\u{0}" + token.lowercased()).utf8)
        return Int(ExperimentAssignment.mix(FNV1a.hash(bytes)) % ExperimentAssignment.buckets)
    }

    @Test func bucketsFollowTheDocumentedRuleWhateverTheTokensCase() {
        let assignment = ExperimentAssignment(experiment: "c_01HX", shares: [50, 50], testShare: 30)
        for number in 0..<500 {
            let token = String(repeating: String(format: "%08X", number &* 2_654_435_761), count: 8)
            let variant = Self.documented(salt: "variant", experiment: "c_01HX", token: token)
            #expect(ExperimentAssignment.bucket(salt: "variant", experiment: "c_01HX", token: token) == variant)
            #expect(
                ExperimentAssignment.bucket(salt: "variant", experiment: "c_01HX", token: token.lowercased())
                    == variant)
            #expect(assignment.place(of: token) == .variant(variant < 5_000 ? 0 : 1))
            let test = Self.documented(salt: "test", experiment: "c_01HX", token: token)
            #expect(assignment.inTestGroup(token) == (test < 3_000))
        }
        // Not ASCII: lowercased as `lowercased()` does.
        let odd = "ÄBC" + String(repeating: "a", count: 61)
        #expect(
            ExperimentAssignment.bucket(salt: "variant", experiment: "c_01HX", token: odd)
                == Self.documented(salt: "variant", experiment: "c_01HX", token: odd))
    }
}
