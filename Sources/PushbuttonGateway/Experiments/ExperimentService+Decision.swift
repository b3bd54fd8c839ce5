import Foundation
import Pushbutton
import PushbuttonStore

/// The statistics of an experiment (``ExperimentStatistics``, issue 36's other half) over its stored counts.
extension ExperimentService {
    /// The metric an experiment without a test phase is analysed on (it names none): taps of any button.
    static let defaultMetric = ExperimentMetric.anyButton

    /// Each arm's counts for `record`'s metric in its test phase: trials are delivered devices, successes the
    /// devices that did what the metric counts. The holdout's trials are its recipients and its successes 0: it
    /// was sent nothing, so nothing it did can be a tap of this notification (what it did otherwise, such as
    /// opening the app, the gateway cannot see).
    static func counts(_ record: ExperimentRecord, tallies: [ExperimentTally])
        -> (control: VariantCounts, treatments: [VariantCounts], holdout: VariantCounts?)
    {
        let metric = record.metric.flatMap(ExperimentMetric.init) ?? defaultMetric
        func arm(_ name: String) -> VariantCounts {
            let tally = tallies.first { $0.variant == name && $0.phase == .test }
            return VariantCounts(
                name: name, trials: tally?.delivered ?? 0, successes: tally.map(metric.successes) ?? 0)
        }
        let holdout = tallies.first { $0.phase == .holdout }.map {
            VariantCounts(name: "holdout", trials: $0.recipients, successes: 0)
        }
        return (arm(record.control), record.variants.filter { $0 != record.control }.map(arm), holdout)
    }

    /// The analysis of `record`'s counts as they stand.
    static func analysis(_ record: ExperimentRecord, tallies: [ExperimentTally]) -> ExperimentAnalysis {
        let (control, treatments, holdout) = counts(record, tallies: tallies)
        return ExperimentStatistics.analyze(
            control: control, treatments: treatments, holdout: holdout,
            plannedTrialsPerVariant: record.plannedTrials, confidence: 0.95,
            metric: (record.metric.flatMap(ExperimentMetric.init) ?? defaultMetric).text)
    }

    /// The decision: the analysis, its verdict (the winner, else `default_variant`), and both as the JSON stored
    /// with the experiment (`{"analysis": …, "verdict": …}`).
    static func decision(_ record: ExperimentRecord, tallies: [ExperimentTally]) -> (rolledOut: String, json: [UInt8]) {
        let analysis = analysis(record, tallies: tallies)
        let verdict = analysis.verdict(defaultVariant: record.defaultVariant)
        let json = JSONValue.object(["analysis": encoded(analysis), "verdict": encoded(verdict)])
        return (verdict.rolledOut, JSONWriter.compact(json))
    }

    /// The analysis as the experiment route shows it before the decision.
    static func analysisJSON(_ record: ExperimentRecord, tallies: [ExperimentTally]) -> JSONValue {
        encoded(analysis(record, tallies: tallies))
    }

    /// A value of the statistics as JSON (their own snake_case encoding).
    static func encoded(_ value: some Encodable) -> JSONValue {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        guard let data = try? encoder.encode(value), let parsed = try? JSONParser.parse(Array(data)) else {
            return .null
        }
        return parsed
    }
}
