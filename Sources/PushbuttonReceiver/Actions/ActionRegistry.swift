import Pushbutton
import PushbuttonSupport

/// The app's named actions, looked up case-insensitively by identifier.
///
/// A button whose identifier matches a registered action performs it, with the payload's arguments.
/// Identifiers in Pushbutton's `pushbutton.` namespace are refused: those are built-in actions.
public final class ActionRegistry: Sendable {
    /// An action's code.
    public typealias Handler = @Sendable (ActionContext) async throws -> Void

    private struct Entry {
        var identifier: String
        var handler: Handler
    }

    private let entries = Locked([String: Entry]())

    public init() {}

    /// Registers (or replaces) the action `identifier`.
    public func register(_ identifier: String, handler: @escaping Handler) throws(ActionRegistryError) {
        if SystemIdentifiers.isReserved(identifier) {
            throw ActionRegistryError(
                .reservedPrefix, identifier: identifier,
                "'\(identifier)' is in Pushbutton's reserved '\(SystemIdentifiers.reservedPrefix)' namespace; pick another identifier"
            )
        }
        if identifier.isEmpty || SystemIdentifiers.isSystemIdentifier(identifier) {
            throw ActionRegistryError(
                .invalidIdentifier, identifier: identifier,
                "'\(identifier)' cannot identify an action (empty, or the system's own body-tap or dismiss identifier)")
        }
        entries.withLock { $0[Self.key(identifier)] = Entry(identifier: identifier, handler: handler) }
    }

    /// Registers (or replaces) an action type under its identifier.
    public func register(_ action: some AppAction) throws(ActionRegistryError) {
        try register(action.identifier) { context in try await action.perform(context) }
    }

    /// Removes an action; returns whether one was registered.
    @discardableResult
    public func unregister(_ identifier: String) -> Bool {
        entries.withLock { $0.removeValue(forKey: Self.key(identifier)) != nil }
    }

    /// Whether an action is registered under `identifier` (any case).
    public func contains(_ identifier: String) -> Bool {
        entries.withLock { $0[Self.key(identifier)] != nil }
    }

    /// The registered identifiers, as registered, sorted.
    public var identifiers: [String] { entries.withLock { $0.values.map(\.identifier).sorted() } }

    /// Performs an action by hand (situation `.manual` unless the context says otherwise).
    public func perform(
        _ identifier: String, arguments: [String: JSONValue] = [:], notification: DeliveredNotification? = nil
    ) async throws {
        guard let (registered, handler) = handler(for: identifier) else {
            throw ActionRegistryError(
                .notRegistered, identifier: identifier, "no action is registered as '\(identifier)'")
        }
        try await handler(
            ActionContext(identifier: registered, arguments: arguments, situation: .manual, notification: notification))
    }

    /// The identifier as registered and the handler for `identifier` (any case), if any.
    func handler(for identifier: String) -> (identifier: String, handler: Handler)? {
        entries.withLock { $0[Self.key(identifier)].map { ($0.identifier, $0.handler) } }
    }

    private static func key(_ identifier: String) -> String { identifier.lowercased() }
}
