import Foundation
import Pushbutton
import PushbuttonStore

/// The JSON the API answers with, from store records. Times are epoch milliseconds; tokens are shown whole
/// (the caller owns them and authenticated with the app's secret key).
enum Rendering {
    static func milliseconds(_ date: Date) -> JSONValue {
        .integer(Int64((date.timeIntervalSince1970 * 1000).rounded()))
    }

    static func counts(_ record: NotificationRecord) -> JSONValue {
        var counts: [String: JSONValue] = [:]
        for state in DeliveryState.allCases { counts[state.rawValue] = .integer(Int64(record.counts[state] ?? 0)) }
        if let schedule = record.schedule { SendTimingRendering.counts(schedule, into: &counts) }
        return .object(counts)
    }

    /// The skipped recipients by reason (`frequency_cap`, `device_inactive`), beside the counts (which stay
    /// integers by state).
    static func skippedReasons(_ record: NotificationRecord) -> JSONValue {
        .object(record.skippedReasons.mapValues { .integer(Int64($0)) })
    }

    static func notification(_ record: NotificationRecord) -> JSONValue {
        var object: [String: JSONValue] = [
            "id": .string(record.spec.id), "app": .string(record.spec.app), "kind": .string(record.spec.kind.rawValue),
            "state": .string(record.state), "created_at": milliseconds(record.spec.createdAt),
            "recipients": .integer(Int64(record.total)), "counts": counts(record),
            "skipped_reasons": skippedReasons(record), "deliveries": .array(record.deliveries.map(delivery)),
        ]
        if let last = record.deliveries.last, record.deliveries.count < record.total {
            object["next_after"] = .integer(last.id)
        }
        if let schedule = record.schedule { SendTimingRendering.timing(schedule, into: &object) }
        return .object(object)
    }

    static func delivery(_ delivery: DeliveryRecord) -> JSONValue {
        var object: [String: JSONValue] = [
            "id": .integer(delivery.id), "token": .string(delivery.token), "apns_id": .string(delivery.apnsID),
            "state": .string(delivery.state.rawValue), "attempts": .integer(Int64(delivery.attempts)),
            "leases": .integer(Int64(delivery.leases)),
        ]
        if let status = delivery.status { object["status"] = .integer(Int64(status)) }
        if let reason = delivery.reason { object["reason"] = .string(reason) }
        if let finished = delivery.finishedAt { object["finished_at"] = milliseconds(finished) }
        if let unregistered = delivery.unregisteredAt { object["unregistered_at"] = milliseconds(unregistered) }
        return .object(object)
    }

    static func campaign(_ record: NotificationRecord) -> JSONValue {
        let finished = record.counts.filter { $0.key.isFinal }.values.reduce(0, +)
        var object: [String: JSONValue] = [
            "id": .string(record.spec.id), "app": .string(record.spec.app), "state": .string(record.state),
            "created_at": milliseconds(record.spec.createdAt), "recipients": .integer(Int64(record.total)),
            "finished": .integer(Int64(finished)), "counts": counts(record),
            "skipped_reasons": skippedReasons(record),
        ]
        if let schedule = record.schedule { SendTimingRendering.timing(schedule, into: &object) }
        return .object(object)
    }

    static func device(_ record: DeviceRecord) -> JSONValue {
        let registration = record.registration
        var object: [String: JSONValue] = [
            "app": .string(registration.app), "token": .string(registration.token),
            "environment": .string(registration.environment), "active": .bool(record.active),
            "tags": .array(registration.tags.map { .string($0) }),
            "registered_at": milliseconds(registration.registeredAt),
        ]
        if let locale = registration.locale { object["locale"] = .string(locale) }
        if let version = registration.appVersion { object["app_version"] = .string(version) }
        if let user = registration.userID { object["user_id"] = .string(user) }
        if let since = record.inactiveSince { object["inactive_since"] = milliseconds(since) }
        if let zone = registration.timeZone { object["time_zone"] = .string(zone) }
        if let quiet = registration.quietHours {
            func text(_ minute: Int) -> JSONValue { .string(String(format: "%02d:%02d", minute / 60, minute % 60)) }
            object["quiet_hours"] = .object(["start": text(quiet.start), "end": text(quiet.end)])
        }
        return .object(object)
    }

    /// A queued notification (`202`): its record, `replayed` for a repeated `Idempotency-Key`, and the
    /// payload's warnings.
    static func accepted(_ accepted: AcceptedNotification) -> JSONValue {
        var object = notification(accepted.record).objectValue ?? [:]
        if accepted.replayed { object["replayed"] = true }
        if !accepted.warnings.isEmpty { object["warnings"] = .array(accepted.warnings.map(GatewayError.json)) }
        return .object(object)
    }

    /// A notification whose request waited for its outcomes (`wait_seconds`): as accepted, with `"complete"`
    /// saying whether every recipient's outcome was final when the answer was written.
    static func waited(_ accepted: AcceptedNotification, complete: Bool) -> JSONValue {
        var object = Self.accepted(accepted).objectValue ?? [:]
        object["complete"] = .bool(complete)
        return .object(object)
    }

    /// A created campaign (`202`): its record, and `replayed` for a repeated `Idempotency-Key`.
    static func acceptedCampaign(_ accepted: AcceptedNotification) -> JSONValue {
        var object = campaign(accepted.record).objectValue ?? [:]
        if accepted.replayed { object["replayed"] = true }
        return .object(object)
    }

    /// A batch of taps: how many were new, how many were already stored.
    static func taps(_ result: TapBatchResult) -> JSONValue {
        ["accepted": .integer(Int64(result.accepted)), "duplicates": .integer(Int64(result.duplicates))]
    }

    /// `GET /v1/apps/{app}/stats` (the shared contract of issue 16).
    static func stats(_ stats: TapStats) -> JSONValue {
        func milliseconds(_ value: Double?) -> JSONValue {
            guard let value else { return .null }
            return value == value.rounded() ? .integer(Int64(value)) : .double(value)
        }
        let buttons: [JSONValue] = stats.buttons.map { button in
            [
                "button": .string(button.button), "taps": .integer(Int64(button.taps)),
                "rate_of_deliveries": .double(button.rateOfDeliveries),
                "rate_of_responses": .double(button.rateOfResponses),
            ]
        }
        return [
            "app": .string(stats.app), "campaign": stats.campaign.map(JSONValue.string) ?? .null,
            "category": stats.category.map(JSONValue.string) ?? .null,
            "from": stats.from.map(JSONValue.string) ?? .null,
            "to": stats.to.map(JSONValue.string) ?? .null,
            "sent": .integer(Int64(stats.sent)), "delivered": .integer(Int64(stats.delivered)),
            "rejected": .integer(Int64(stats.rejected)), "failed": .integer(Int64(stats.failed)),
            "dead_tokens": .integer(Int64(stats.deadTokens)), "responses": .integer(Int64(stats.responses)),
            "response_rate": .double(stats.responseRate), "buttons": .array(buttons),
            "body": .integer(Int64(stats.body)), "dismissals": stats.dismissals.map { .integer(Int64($0)) } ?? .null,
            "foreground": .integer(Int64(stats.foreground)), "background": .integer(Int64(stats.background)),
            "received": .integer(Int64(stats.received)), "received_rate": .double(stats.receivedRate),
            "response_rate_of_received": .double(stats.responseRateOfReceived),
            "time_to_tap_ms": [
                "median": milliseconds(stats.medianTimeToTap), "p90": milliseconds(stats.p90TimeToTap),
            ],
        ]
    }
}
