import Pushbutton
import PushbuttonReceiver
import PushbuttonSupport

/// The demo app's side effects: what its actions ran with and which URLs it opened.
final class DemoRecorder: URLOpener, Sendable {
    private let recent = Locked([String]())
    private let everything = Locked([String]())
    private let reports = Locked([RoutingReport]())

    /// Keeps the router's report of a response, for the tap log.
    func routed(_ report: RoutingReport) { reports.withLock { $0.append(report) } }

    /// The reports since the last call.
    func takeReports() -> [RoutingReport] {
        reports.withLock { reports in
            defer { reports.removeAll() }
            return reports
        }
    }

    func ran(_ context: ActionContext) {
        let arguments = String(decoding: JSONWriter.compact(.object(context.arguments)), as: UTF8.self)
        let reply = context.replyText.map { " and reply “\($0)”" } ?? ""
        add("\(context.identifier) ran (\(context.situation)) with \(arguments)\(reply)")
    }

    func open(_ url: String) async -> Bool {
        add("opened \(url)")
        return true
    }

    /// The lines since the last call.
    func drain() -> [String] {
        recent.withLock { lines in
            defer { lines.removeAll() }
            return lines
        }
    }

    func contains(_ line: String) -> Bool { everything.withLock { $0.contains(line) } }

    private func add(_ line: String) {
        recent.withLock { $0.append(line) }
        everything.withLock { $0.append(line) }
    }
}
