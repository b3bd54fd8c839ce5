import Foundation

/// Which notifications' outcomes and taps a statistics read covers.
public struct StatsQuery: Sendable, Hashable {
    /// The notifications counted.
    public enum Scope: Sendable, Hashable {
        /// Every notification of the app.
        case app
        /// One notification or campaign, by id.
        case notification(String)
        /// Every notification of the app whose category is this one (see ``TapStore/categorize(app:limit:_:)``).
        case category(String)
    }

    /// The app whose notifications are counted.
    public var app: String
    /// Which of its notifications.
    public var scope: Scope
    /// Outcomes finished and taps made at or after this time.
    public var from: Date?
    /// … and before this time.
    public var to: Date?

    /// A query of `app`'s notifications in `scope`, outcomes and taps within `from`..<`to` when given.
    public init(app: String, scope: Scope = .app, from: Date? = nil, to: Date? = nil) {
        self.app = app
        self.scope = scope
        self.from = from
        self.to = to
    }
}
