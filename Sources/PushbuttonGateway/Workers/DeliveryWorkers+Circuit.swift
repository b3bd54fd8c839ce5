import Foundation
import PushbuttonAPNs
import PushbuttonStore
import PushbuttonSupport

/// What the workers do while an app's APNs cannot be reached (``APNsCircuit``): recipients whose tries never
/// reached APNs go back to the queue with their attempts unchanged, and the notification's `apns-expiration`
/// decides when to give up.
extension DeliveryWorkers {
    /// A circuit per app, logging to standard error and shown in `metrics`.
    static func circuits(apps: some Sequence<String>, clock: AnyDurationClock, metrics: GatewayMetrics)
        -> [String: APNsCircuit]
    {
        var circuits: [String: APNsCircuit] = [:]
        for app in apps {
            metrics.circuit(app, open: false)
            circuits[app] = APNsCircuit(
                app: app, clock: clock, log: { FileHandle.standardError.write(Data("\($0)\n".utf8)) },
                changed: { metrics.circuit(app, open: $0) })
        }
        return circuits
    }

    /// The apps whose circuit holds every batch now (open, no probe due): the lease passes them over. An app
    /// whose probe is due is leased again, and one worker's batch of it goes as the probe.
    func unreachableApps() -> Set<String> {
        Set(circuits.filter { $0.value.holdsAll }.keys)
    }

    /// The idle wait when the lease found nothing though work is due (`timeout` is then the short busy retry):
    /// with apps passed over, what is due may be theirs, so the wait lasts until the first probe is due (at most
    /// the poll interval), not a busy retry after another.
    func idleTimeout(_ timeout: Duration, passedOver: Bool) -> Duration {
        guard passedOver, timeout <= Self.busyRetry else { return timeout }
        let probe = circuits.values.compactMap(\.untilProbe).min() ?? options.pollInterval
        return min(options.pollInterval, max(Self.busyRetry, probe))
    }

    /// Sorts the recipients of an app whose circuit is open, without sending them: those whose expiration
    /// passed fail (one outcome, one webhook), the rest are held to be given back.
    func hold(_ deliveries: [LeasedDelivery], into completed: inout [CompletedDelivery], held: inout [LeasedDelivery]) {
        let at = now()
        for delivery in deliveries {
            if let expiration = delivery.expiration, APNsCircuit.hasExpired(expiration: expiration, now: at) {
                let cause = APNsCircuit.expiredCause(
                    expiration: expiration, lastCause: "the app's APNs circuit is open")
                completed.append(CompletedDelivery(delivery, outcome: .failed(attempts: 0, cause: cause), attempts: 0))
            } else {
                held.append(delivery)
            }
        }
    }

    /// The outcome of a recipient whose tries never reached APNs (`cause` is `.unreachable`): `nil` to hold it
    /// (given back to the queue), a failure once its expiration has passed.
    func unreachableOutcome(expiration: Int64?, cause: APNsError) -> DeliveryOutcome? {
        guard let expiration, APNsCircuit.hasExpired(expiration: expiration, now: now()) else { return nil }
        return .failed(
            attempts: 0, cause: APNsCircuit.expiredCause(expiration: expiration, lastCause: cause.message))
    }

    /// Gives held recipients back to the queue (due again, same apns-id, attempts unchanged). If the store
    /// refuses, they come back when their lease runs out.
    func giveBack(_ held: [LeasedDelivery]) async {
        await release(held)
    }
}
