import Foundation
import Pushbutton
import PushbuttonStore

/// `GET /v1/campaigns/{id}/experiment`: the experiment's rule, state and counts, its analysis and, once
/// decided, the verdict as it was stored.
extension ExperimentService {
    func report(campaign id: String, app: String) throws(GatewayError) -> JSONValue {
        let record = try experiment(campaign: id, app: app)
        let tallies = try tallies(record)
        func time(_ date: Date?) -> JSONValue { date.map { .string(RFC3339.text($0)) } ?? .null }
        var variants: [JSONValue] = []
        for name in record.variants {
            var variant: [String: JSONValue] = ["name": .string(name)]
            for phase in [ExperimentPhase.test, .rolledOut] {
                guard let tally = tallies.first(where: { $0.variant == name && $0.phase == phase }) else { continue }
                variant[phase.rawValue] = Self.json(tally)
            }
            variants.append(.object(variant))
        }
        let stored = record.verdict.flatMap { try? JSONParser.parse($0) }?.objectValue
        return .object([
            "campaign": .string(record.campaignID), "metric": record.metric.map(JSONValue.string) ?? .null,
            "state": .string(record.state.rawValue), "control": .string(record.control),
            "default_variant": .string(record.defaultVariant), "decide_after": time(record.decideAfter),
            "decided_at": time(record.decidedAt), "rolled_out": record.rolledOut.map(JSONValue.string) ?? .null,
            "planned_trials_per_variant": record.plannedTrials.map { .integer(Int64($0)) } ?? .null,
            "variants": .array(variants),
            "holdout": .object([
                "recipients": .integer(Int64(tallies.first { $0.phase == .holdout }?.recipients ?? 0))
            ]),
            "waiting": .integer(Int64(tallies.first { $0.phase == .waiting }?.recipients ?? 0)),
            // Decided: the analysis the decision was made on; before, the analysis as it stands (no verdict:
            // the decision happens once).
            "analysis": stored?["analysis"] ?? Self.analysisJSON(record, tallies: tallies),
            "verdict": stored?["verdict"] ?? .null,
        ])
    }

    /// The stats route's `variants` for a campaign with an experiment: each variant's counts per phase;
    /// `nil` for a campaign without one.
    func variantStats(campaign id: String, app: String) throws(GatewayError) -> JSONValue? {
        guard let store, let record = try storing({ () throws(StoreError) in try store.experiment(campaign: id) }),
            record.app == app
        else { return nil }
        let tallies = try tallies(record)
        return .array(
            record.variants.flatMap { name in
                tallies.filter { $0.variant == name }.map { tally -> JSONValue in
                    guard case .object(var object) = Self.json(tally) else { return .null }
                    object["variant"] = .string(name)
                    object["phase"] = .string(tally.phase.rawValue)
                    return .object(object)
                }
            })
    }

    /// One variant's counts in one phase.
    static func json(_ tally: ExperimentTally) -> JSONValue {
        .object([
            "recipients": .integer(Int64(tally.recipients)), "delivered": .integer(Int64(tally.delivered)),
            "displayed": .integer(Int64(tally.displayed)),
            "taps": .object([
                "buttons": .object(tally.buttonTaps.mapValues { .integer(Int64($0)) }),
                "any_button": .integer(Int64(tally.anyButton)), "body": .integer(Int64(tally.bodyTaps)),
                "dismiss": .integer(Int64(tally.dismisses)),
            ]),
        ])
    }
}

/// The console's experiment page (``ExperimentPage``) from the stored experiment.
extension ExperimentService {
    func consoleReport(campaign id: String, app: String) throws(GatewayError) -> ExperimentReport {
        let record = try experiment(campaign: id, app: app)
        let stored = record.verdict.flatMap { try? JSONParser.parse($0) }?.objectValue
        let decoder = JSONDecoder()
        func decoded<Value: Decodable>(_ type: Value.Type, _ value: JSONValue?) -> Value? {
            guard let value, value != .null else { return nil }
            return try? decoder.decode(type, from: Data(JSONWriter.compact(value)))
        }
        // Decided: the analysis the decision was made on; before, as it stands.
        let analysis: ExperimentAnalysis
        if let decided = decoded(ExperimentAnalysis.self, stored?["analysis"]) {
            analysis = decided
        } else {
            analysis = Self.analysis(record, tallies: try tallies(record))
        }
        let phase: ExperimentReport.Phase =
            switch record.state {
            case .running: .observing
            case .testing, .deciding: .testing(until: record.decideAfter)
            case .rollingOut: .decided(at: record.decidedAt ?? Date(timeIntervalSince1970: 0))
            case .rolledOut: .rolledOut(at: record.decidedAt ?? Date(timeIntervalSince1970: 0))
            }
        // The rule and the labels (each variant's category) from the campaign's stored header.
        let request = try campaigns.campaign(id: id, app: app).spec.request
        let header = (try? JSONParser.parse(request))?.objectValue
        var labels: [String: String] = [:]
        for variant in header?["variants"]?.arrayValue ?? [] {
            guard let fields = variant.objectValue, let name = fields["name"]?.stringValue else { continue }
            if let category = (fields["category"] ?? header?["category"])?.stringValue { labels[name] = category }
        }
        return ExperimentReport(
            campaign: id, analysis: analysis, phase: phase,
            verdict: decoded(ExperimentVerdict.self, stored?["verdict"]), defaultVariant: record.defaultVariant,
            remainingShare: header?["test_share"]?.integerValue.map { 100 - Int($0) }, labels: labels)
    }
}
