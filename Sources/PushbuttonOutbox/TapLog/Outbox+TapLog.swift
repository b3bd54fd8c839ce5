import Foundation
import Pushbutton
import PushbuttonReceiver
import PushbuttonSQLite
import PushbuttonSupport

extension Outbox {
    /// Records a routed response in the tap log: category, action, situation, latency from delivery, and
    /// the reply's length (its text only with ``OutboxOptions/recordReplyText``).
    public func record(_ report: RoutingReport) throws(OutboxError) {
        let response = report.response
        // The injected clock, as everything else the outbox stores: latencies and pruning agree with it.
        let time = now()
        let action: String
        switch report.situation {
        case .bodyTap: action = "(body)"
        case .dismiss: action = "(dismiss)"
        default: action = response.actionIdentifier
        }
        let replyText = options.recordReplyText ? response.userText.map(SQLiteValue.text) ?? .null : .null
        try insertTap([
            .real(time.timeIntervalSince1970), .text("response"), .text(response.notification.identifier),
            .text(report.categoryIdentifier ?? response.notification.categoryIdentifier), .text(action),
            .text(report.situation.rawValue), .real(max(0, time.timeIntervalSince(response.notification.date))),
            response.userText.map { .integer(Int64($0.count)) } ?? .null, replyText,
        ])
    }

    /// Records that a notification was delivered (from `willPresent` or a service extension), so tap rates
    /// can be computed against deliveries.
    public func recordDelivered(_ notification: DeliveredNotification) throws(OutboxError) {
        try insertTap([
            .real(notification.date.timeIntervalSince1970), .text("delivered"), .text(notification.identifier),
            .text(notification.categoryIdentifier), .null, .null, .null, .null, .null,
        ])
    }

    /// Records every response the router routes, from now on (errors are reported to `onError`).
    public nonisolated func attach(
        to router: ResponseRouter, onError: @escaping @Sendable (OutboxError) -> Void = { _ in }
    ) {
        router.observe { report in
            Task {
                do {
                    try await self.record(report)
                } catch let error as OutboxError {
                    onError(error)
                } catch {
                    onError(.storage(SQLiteError(code: -1, message: "\(error)", context: "recording a tap")))
                }
            }
        }
    }

    private func insertTap(_ values: [SQLiteValue]) throws(OutboxError) {
        let database = database
        let options = options
        do {
            try database.query(
                """
                INSERT INTO taps (at, kind, notification_id, category, action, situation, latency, reply_length, reply_text)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                """, values)
        } catch {
            throw .storage(error)
        }
        try pruneTapsEvery(100, maximumRows: options.tapLogMaximumRows, maximumAge: options.tapLogMaximumAge.seconds)
    }

    /// The tap summary, categories and actions sorted by count.
    public func tapSummary() throws(OutboxError) -> TapSummary {
        let database = database
        try pruneTaps(maximumRows: options.tapLogMaximumRows, maximumAge: options.tapLogMaximumAge.seconds)
        do {
            var delivered: [String: Int] = [:]
            for row in try database.rows(
                "SELECT category, count(*) AS count FROM taps WHERE kind = 'delivered' GROUP BY category")
            {
                delivered[try row.text("category")] = Int(try row.integer("count"))
            }
            var latencies: [String: [String: [Double]]] = [:]
            for row in try database.rows("SELECT category, action, latency FROM taps WHERE kind = 'response'") {
                // A response always has its action and latency (record(_:) writes both).
                latencies[try row.text("category"), default: [:]][try row.text("action"), default: []].append(
                    try row.real("latency"))
            }
            var categories: [TapSummary.CategoryStats] = []
            for category in Set(latencies.keys).union(delivered.keys) {
                let actions = latencies[category] ?? [:]
                let responses = actions.values.map(\.count).reduce(0, +)
                let sent = delivered[category] ?? 0
                let stats = actions.map { action, values in
                    TapSummary.ActionStats(
                        action: action, count: values.count,
                        shareOfResponses: Double(values.count) / Double(max(responses, 1)),
                        rate: sent > 0 ? Double(values.count) / Double(sent) : nil, medianLatency: Self.median(values))
                }.sorted { $0.count != $1.count ? $0.count > $1.count : $0.action < $1.action }
                categories.append(.init(category: category, delivered: sent, responses: responses, actions: stats))
            }
            categories.sort { $0.responses != $1.responses ? $0.responses > $1.responses : $0.category < $1.category }
            return TapSummary(
                categories: categories, totalResponses: categories.map(\.responses).reduce(0, +),
                totalDelivered: delivered.values.reduce(0, +))
        } catch {
            throw .storage(error)
        }
    }

    private static func median(_ values: [Double]) -> Double? {
        guard !values.isEmpty else { return nil }
        let sorted = values.sorted()
        return sorted.count % 2 == 1
            ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
    }
}
