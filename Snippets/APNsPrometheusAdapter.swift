// The sender's events as Prometheus counters and a latency histogram: switch on the event.
// snippet.hide
// swift-prometheus is not a dependency of this package: the registry below has its shape, so this file checks
// the Pushbutton side (APNsObserver, the APNsEvent cases and their fields).
import PushbuttonAPNs

/// swift-prometheus' registry, as far as this snippet uses it.
final class PrometheusCollectorRegistry: Sendable {
    /// A counter.
    struct Counter { func increment() {} }
    /// A histogram of durations.
    struct DurationHistogram { func record(_ duration: Duration) {} }
    func makeCounter(name: String, labels: [(String, String)] = []) -> Counter { Counter() }
    func makeDurationHistogram(name: String, buckets: [Duration]) -> DurationHistogram { DurationHistogram() }
}

// snippet.show
// import Prometheus (swift-prometheus)

struct PrometheusObserver: APNsObserver {
    let registry: PrometheusCollectorRegistry

    func observe(_ event: APNsEvent) {
        switch event {
        case .delivered(_, _, _, let latency):
            registry.makeCounter(name: "apns_delivered_total").increment()
            registry.makeDurationHistogram(name: "apns_latency_seconds", buckets: [.milliseconds(10), .seconds(1)])
                .record(latency)
        case .rejected(_, _, _, let reason, _):
            registry.makeCounter(name: "apns_rejected_total", labels: [("reason", reason.rawValue)]).increment()
        case .retried: registry.makeCounter(name: "apns_retried_total").increment()
        case .goaway: registry.makeCounter(name: "apns_goaway_total").increment()
        case .tokenMinted: registry.makeCounter(name: "apns_provider_tokens_total").increment()
        default: break
        }
    }
}
