import Pushbutton
import PushbuttonStore

/// A notification request's `"wait_seconds"` (gorush's sync mode): the answer waits until every recipient's
/// outcome is final or the time is up, then carries the recipients' states. The notification is queued and
/// committed first, as without a wait: a client that gives up loses nothing.
enum OutcomeWait {
    /// The seconds `request` asks to wait (`nil` without `"wait_seconds"`), or a `422` naming the field when
    /// it is not a number above 0 and at most `maximum`.
    static func seconds(in request: IntakeRequest, maximum: Int) throws(GatewayError) -> Double? {
        guard let value = request.value.objectValue?["wait_seconds"] else { return nil }
        let seconds: Double? =
            switch value {
            case .integer(let integer): Double(integer)
            case .double(let double): double
            default: nil
            }
        guard let seconds, seconds > 0, seconds <= Double(maximum) else {
            throw .invalid(
                request.locate([
                    Diagnostic(
                        .error, .valueRange, at: .root.appending("wait_seconds"),
                        "'wait_seconds' must be a number of seconds above 0 and at most \(maximum), this gateway's "
                            + "limit (limits.maxWaitSeconds)",
                        hint: "leave it out to be answered 202 at once, then read GET /v1/notifications/{id}")
                ]), what: "the notification")
        }
        return seconds
    }

    /// Too many requests wait already: `503` with `retry-after`, nothing queued.
    static func busy(maximumWaiters: Int) -> GatewayError {
        GatewayError(
            503, "too_many_waiting",
            "\(maximumWaiters) requests are waiting for outcomes already (limits.maxWaiters); nothing was queued: "
                + "retry, or send without 'wait_seconds'",
            retryAfter: 1)
    }

    /// Queues `request` as ``NotificationIntake/send(app:request:idempotencyKey:)`` does, then waits up to
    /// `seconds` for its recipients' outcomes: the notification as it stands when they are all final
    /// (`complete`), or at the deadline. Throws ``busy(maximumWaiters:)`` when too many wait already.
    static func send(
        _ request: IntakeRequest, app: AppRuntime, idempotencyKey: String?, seconds: Double,
        services: GatewayServices
    ) throws(GatewayError) -> (accepted: AcceptedNotification, complete: Bool) {
        let waiters = services.waiters
        guard waiters.admit() else { throw busy(maximumWaiters: waiters.maximumWaiters) }
        defer { waiters.leave() }
        // Marked as waited on: the process that records its outcomes tells this one (PostgreSQL). A replayed
        // request's notification keeps the mark its first request gave it.
        var accepted = try services.notifications.send(
            app: app, request: request, idempotencyKey: idempotencyKey, waited: true)
        var failure: GatewayError?
        let id = accepted.record.spec.id
        let complete = waiters.wait(for: id, timeout: .milliseconds(Int64(seconds * 1000))) {
            do throws(GatewayError) {
                accepted.record = try services.notifications.notification(id: id, app: app.id, limit: 1000, after: 0)
            } catch {
                failure = error
                return true
            }
            return isFinal(accepted.record)
        }
        if let failure { throw failure }
        return (accepted, complete)
    }

    /// Whether every recipient has its outcome.
    static func isFinal(_ record: NotificationRecord) -> Bool {
        record.counts.allSatisfy { $0.key.isFinal || $0.value == 0 }
    }
}
