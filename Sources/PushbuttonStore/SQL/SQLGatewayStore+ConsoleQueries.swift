import Foundation

extension SQLGatewayStore: ConsoleQueries {
    /// The app's devices counted with three `GROUP BY` queries, and its latest dead tokens.
    public func deviceSummary(app: String, inactiveLimit: Int) throws(StoreError) -> DeviceSummary {
        try readers.with { connection throws(StoreError) in
            func grouped(_ column: String) throws(StoreError) -> [String: Int] {
                var counts: [String: Int] = [:]
                for row in try connection.query(
                    "SELECT \(column), COUNT(*) FROM devices WHERE app = ? GROUP BY \(column)", [.text(app)])
                {
                    counts[row[0].text ?? "unknown", default: 0] += Int(row[1].integer ?? 0)
                }
                return counts
            }
            let totals = try connection.query(
                "SELECT COUNT(*), COALESCE(SUM(active), 0) FROM devices WHERE app = ?", [.text(app)]
            ).first
            let inactive = try connection.query(
                """
                SELECT token, inactive_since FROM devices
                WHERE app = ? AND active = 0 AND inactive_since IS NOT NULL
                ORDER BY inactive_since DESC, token LIMIT ?
                """, [.text(app), .integer(Int64(max(0, inactiveLimit)))]
            ).map { row in
                DeviceSummary.InactiveToken(
                    token: row[0].text ?? "", inactiveSince: Date(timeIntervalSince1970: row[1].real ?? 0))
            }
            return DeviceSummary(
                total: Int(totals?[0].integer ?? 0), active: Int(totals?[1].integer ?? 0),
                byEnvironment: try grouped("environment"), byLocale: try grouped("locale"),
                byAppVersion: try grouped("app_version"), inactiveTokens: inactive)
        }
    }

    /// The app's campaigns, newest first.
    public func campaignIDs(app: String, limit: Int) throws(StoreError) -> [String] {
        try readers.with { connection throws(StoreError) in
            try connection.query(
                """
                SELECT id FROM notifications WHERE app = ? AND kind = 'campaign'
                ORDER BY created_at DESC, id DESC LIMIT ?
                """, [.text(app), .integer(Int64(max(0, limit)))]
            ).compactMap { $0.first?.text }
        }
    }
}
