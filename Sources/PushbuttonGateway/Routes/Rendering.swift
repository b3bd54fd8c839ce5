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
        return .object(counts)
    }

    static func notification(_ record: NotificationRecord) -> JSONValue {
        var object: [String: JSONValue] = [
            "id": .string(record.spec.id), "app": .string(record.spec.app), "kind": .string(record.spec.kind.rawValue),
            "state": .string(record.state), "created_at": milliseconds(record.spec.createdAt),
            "recipients": .integer(Int64(record.total)), "counts": counts(record),
            "deliveries": .array(record.deliveries.map(delivery)),
        ]
        if let last = record.deliveries.last, record.deliveries.count < record.total {
            object["next_after"] = .integer(last.id)
        }
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
        return .object([
            "id": .string(record.spec.id), "app": .string(record.spec.app), "state": .string(record.state),
            "created_at": milliseconds(record.spec.createdAt), "recipients": .integer(Int64(record.total)),
            "finished": .integer(Int64(finished)), "counts": counts(record),
        ])
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
        return .object(object)
    }
}
