import Foundation
import Pushbutton
import PushbuttonStore

extension ExperimentService {
    /// Placeholder until the statistics are merged.
    static func decision(_ record: ExperimentRecord, tallies: [ExperimentTally]) -> (rolledOut: String, json: [UInt8]) {
        (record.defaultVariant, Array("{}".utf8))
    }
}

extension ExperimentService {
    /// Placeholder until the statistics are merged.
    static func analysisJSON(_ record: ExperimentRecord, tallies: [ExperimentTally]) -> JSONValue { .null }
}
