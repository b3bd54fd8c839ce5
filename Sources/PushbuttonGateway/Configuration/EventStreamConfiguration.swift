import Foundation
import Pushbutton
import PushbuttonStore

/// The event stream (`"webhook": {"events": {…}}`): which event types are raised and posted, where (the
/// webhook's URL unless `url` is given) and how many per request. Signed and made durable as the webhook is.
public struct EventStreamConfiguration: Sendable, Hashable {
    /// Where batches are posted; nil: the webhook's URL.
    public var url: String?
    /// The types raised (by default every one).
    public var types: Set<StreamEvent.Kind>
    /// Events per request, at most.
    public var batch: Int

    /// A stream of `types` to `url` (nil: the webhook's), `batch` events per request.
    public init(url: String? = nil, types: Set<StreamEvent.Kind> = Set(StreamEvent.Kind.allCases), batch: Int = 1000) {
        self.url = url
        self.types = types
        self.batch = batch
    }

    /// `"events": {"url": …, "types": [...], "batch": 1000}` of the webhook's settings (`true`: every type to
    /// the webhook's URL); nil when absent or `false`.
    static func read(_ webhook: ConfigReader, diagnostics: inout [Diagnostic]) -> EventStreamConfiguration? {
        guard let value = webhook.members["events"] else { return nil }
        if let enabled = value.boolValue { return enabled ? EventStreamConfiguration() : nil }
        guard
            let reader = webhook.object(
                "events", what: "'events' (true, or {\"url\", \"types\", \"batch\"})", diagnostics: &diagnostics)
        else { return nil }
        reader.unknownKeys(known: ["url", "types", "batch"], diagnostics: &diagnostics)
        var stream = EventStreamConfiguration()
        if let url = reader.string("url", diagnostics: &diagnostics) {
            if URL(string: url)?.scheme.map({ ["http", "https"].contains($0) }) != true {
                diagnostics.append(
                    Diagnostic(
                        .error, .unknownValue, at: reader.path.appending("url"), "the events URL must be http(s)"))
            }
            stream.url = url
        }
        if let names = reader.strings(
            "types", maximumCount: StreamEvent.Kind.allCases.count * 2, diagnostics: &diagnostics)
        {
            var types = Set<StreamEvent.Kind>()
            let known = StreamEvent.Kind.allCases.map(\.rawValue)
            for (index, name) in names.enumerated() {
                guard let kind = StreamEvent.Kind(rawValue: name) else {
                    diagnostics.append(
                        Diagnostic(
                            .error, .unknownValue, at: reader.path.appending("types").appending(index),
                            "'\(name)' is not an event type",
                            hint: Suggestion.didYouMean(name, among: known) ?? "types: \(known.joined(separator: ", "))"
                        ))
                    continue
                }
                types.insert(kind)
            }
            stream.types = types
        }
        if let batch = reader.integer("batch", in: 1...1000, diagnostics: &diagnostics) { stream.batch = batch }
        return stream
    }
}
