import Foundation
import PushbuttonSupport

/// The process's counters, rendered in Prometheus' text format by `GET /metrics`: notifications accepted,
/// sent, delivered, rejected by reason and failed (per app), the APNs latency histogram, and HTTP requests
/// by route and status. The queue depth is read from the store when scraped.
public final class GatewayMetrics: Sendable {
    struct Counters {
        var accepted: [String: Int] = [:]
        var sent: [String: Int] = [:]
        var delivered: [String: Int] = [:]
        var rejected: [String: Int] = [:]  // "app\u{0}reason"
        var failed: [String: Int] = [:]
        var inconclusive: [String: Int] = [:]
        var deactivated: [String: Int] = [:]
        var duplicatesRefused = 0
        var circuitOpen: [String: Int] = [:]  // 1 while the app's APNs circuit is open
        var requests: [String: Int] = [:]  // "route\u{0}status"
        var latencyBuckets = [Int](repeating: 0, count: GatewayMetrics.bounds.count)
        var latencyCount = 0
        var latencySum = 0.0
    }

    /// Upper bounds (seconds) of the APNs latency histogram's buckets.
    static let bounds: [Double] = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]
    private let counters = Locked(Counters())

    public init() {}

    func accepted(_ app: String, _ count: Int) { counters.withLock { $0.accepted[app, default: 0] += count } }

    func request(route: String, status: Int) {
        counters.withLock { $0.requests["\(route)\u{0}\(status)", default: 0] += 1 }
    }

    /// Adds one batch's final outcomes of `app`.
    func sent(_ app: String, _ tally: SentTally) {
        let count = tally.count
        guard count > 0 || tally.inconclusive > 0 else { return }
        counters.withLock { counters in
            if tally.inconclusive > 0 { counters.inconclusive[app, default: 0] += tally.inconclusive }
            guard count > 0 else { return }
            counters.sent[app, default: 0] += count
            if tally.delivered > 0 { counters.delivered[app, default: 0] += tally.delivered }
            for (reason, rejected) in tally.rejected {
                counters.rejected["\(app)\u{0}\(reason)", default: 0] += rejected
            }
            if tally.failed > 0 { counters.failed[app, default: 0] += tally.failed }
            counters.latencyCount += count
            counters.latencySum += tally.latencySum
            for (index, bucket) in tally.latencyBuckets.enumerated() { counters.latencyBuckets[index] += bucket }
        }
    }

    func deactivated(_ app: String, _ count: Int = 1) { counters.withLock { $0.deactivated[app, default: 0] += count } }

    /// The state of `app`'s ``APNsCircuit``.
    func circuit(_ app: String, open: Bool) { counters.withLock { $0.circuitOpen[app] = open ? 1 : 0 } }

    func refusedLateOutcomes(_ count: Int) { counters.withLock { $0.duplicatesRefused += count } }

    /// Delivered so far in this process, over every app (for tests and the benchmark).
    public var deliveredTotal: Int { counters.withLock { $0.delivered.values.reduce(0, +) } }

    /// The text exposition format, version 0.0.4.
    func render(queueDepth: Int?) -> String {
        let snapshot = counters.withLock { $0 }
        var text = ""
        func family(_ name: String, _ help: String, _ type: String) {
            text += "# HELP \(name) \(help)\n# TYPE \(name) \(type)\n"
        }
        func labelled(_ name: String, _ values: [String: Int], label: String) {
            for (key, value) in values.sorted(by: { $0.key < $1.key }) {
                text += "\(name){\(label)=\"\(Self.escape(key))\"} \(value)\n"
            }
        }
        family("pushbutton_notifications_accepted_total", "Recipients accepted into the queue.", "counter")
        labelled("pushbutton_notifications_accepted_total", snapshot.accepted, label: "app")
        family("pushbutton_notifications_sent_total", "Recipients sent to APNs (final outcomes).", "counter")
        labelled("pushbutton_notifications_sent_total", snapshot.sent, label: "app")
        family("pushbutton_notifications_delivered_total", "Recipients APNs accepted.", "counter")
        labelled("pushbutton_notifications_delivered_total", snapshot.delivered, label: "app")
        family("pushbutton_notifications_rejected_total", "Recipients APNs refused, by reason.", "counter")
        for (key, value) in snapshot.rejected.sorted(by: { $0.key < $1.key }) {
            let parts = key.split(separator: "\u{0}", omittingEmptySubsequences: false)
            text +=
                "pushbutton_notifications_rejected_total{app=\"\(Self.escape(String(parts[0])))\",reason=\"\(Self.escape(String(parts.last ?? "")))\"} \(value)\n"
        }
        family("pushbutton_notifications_failed_total", "Recipients whose retries ran out.", "counter")
        labelled("pushbutton_notifications_failed_total", snapshot.failed, label: "app")
        family(
            "pushbutton_apns_attempts_inconclusive_total",
            "Attempts that did not settle their recipient (timed out, lost with their connection, or answered "
                + "429/500/503): APNs may have received each, so it may see that apns-id once more.", "counter")
        labelled("pushbutton_apns_attempts_inconclusive_total", snapshot.inconclusive, label: "app")
        family("pushbutton_devices_deactivated_total", "Devices marked inactive after a 410.", "counter")
        labelled("pushbutton_devices_deactivated_total", snapshot.deactivated, label: "app")
        family(
            "pushbutton_late_outcomes_refused_total", "Outcomes not recorded because the lease had passed on.",
            "counter")
        text += "pushbutton_late_outcomes_refused_total \(snapshot.duplicatesRefused)\n"
        family(
            "pushbutton_apns_circuit_open", "1 while APNs is unreachable for the app and its queue is held.", "gauge")
        labelled("pushbutton_apns_circuit_open", snapshot.circuitOpen, label: "app")
        if let queueDepth {
            family("pushbutton_queue_depth", "Recipients queued or leased, in the shared store.", "gauge")
            text += "pushbutton_queue_depth \(queueDepth)\n"
        }
        family("pushbutton_apns_latency_seconds", "Time from lease to APNs' final answer.", "histogram")
        var cumulative = 0
        for (index, bound) in Self.bounds.enumerated() {
            cumulative += snapshot.latencyBuckets[index]
            text += "pushbutton_apns_latency_seconds_bucket{le=\"\(bound)\"} \(cumulative)\n"
        }
        text += "pushbutton_apns_latency_seconds_bucket{le=\"+Inf\"} \(snapshot.latencyCount)\n"
        text += "pushbutton_apns_latency_seconds_sum \(snapshot.latencySum)\n"
        text += "pushbutton_apns_latency_seconds_count \(snapshot.latencyCount)\n"
        family("pushbutton_http_requests_total", "HTTP requests by route and status.", "counter")
        for (key, value) in snapshot.requests.sorted(by: { $0.key < $1.key }) {
            let parts = key.split(separator: "\u{0}", omittingEmptySubsequences: false)
            text +=
                "pushbutton_http_requests_total{route=\"\(Self.escape(String(parts[0])))\",status=\"\(parts.last ?? "")\"} \(value)\n"
        }
        return text
    }

    private static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            .replacingOccurrences(of: "\n", with: "\\n")
    }
}
