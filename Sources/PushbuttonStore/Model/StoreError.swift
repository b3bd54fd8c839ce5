/// A failed store operation: a ``code`` to branch on, what was attempted (``context``) and what went wrong
/// (``message``, often the database's own words).
///
/// Codes are extensible (new ones can come in a minor release), as the APNs reasons and key errors are:
/// compare with the static members and keep a default case.
///
/// The message and context are for the operator's log, not for clients: they can hold SQL, table names and a
/// database's host. The gateway logs them and answers "the store is unavailable".
public struct StoreError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of failure it is.
    public struct Code: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        /// The code's name, stable across releases.
        public var rawValue: String
        /// The code named `rawValue` (a name this version does not know is kept as it is).
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The code's name.
        public var description: String { rawValue }

        /// The database failed a statement or a connection (its message says which): the usual code.
        public static let database = Code(rawValue: "database")
        /// The database has a migration this version does not know: a newer Pushbutton made it. Upgrade.
        public static let newerSchema = Code(rawValue: "newer-schema")
        /// The store found its own rows not as it had just written them (a row that vanished, an answer
        /// lost): a bug, or someone else writing to the database.
        public static let inconsistent = Code(rawValue: "inconsistent")
    }

    /// What kind of failure it is, to branch on.
    public var code: Code
    /// What went wrong (the database's message where it gave one).
    public var message: String
    /// What was attempted: the statement, or the step (such as "migrating the gateway store").
    public var context: String

    /// A failure of `code` while doing `context`, described by `message`.
    public init(_ code: Code, _ message: String, context: String) {
        self.code = code
        self.message = message
        self.context = context
    }

    /// A failure the database reported (``Code/database``) while doing `context`.
    public init(_ message: String, context: String) {
        self.init(.database, message, context: context)
    }

    /// The context and the message, for the log.
    public var description: String { "\(context): \(message)" }
}
