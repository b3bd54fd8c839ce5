/// Where `pushbutton.add_tag` and `pushbutton.remove_tag` keep the device's tags.
///
/// The default is local (``UserDefaultsTagStore`` on Apple platforms, ``InMemoryTagStore`` elsewhere). An app
/// whose backend or gateway segments by tag uses ``BackendTagStore``, which also sends each change through the
/// app's ``BackendDelivery`` (the outbox), or a store of its own. The router hands it tags already checked with
/// `BuiltinAction.tagProblem(_:)`.
public protocol TagStore: Sendable {
    /// The device's tags now.
    func tags() async throws -> Set<String>
    /// Adds `change.added` and removes `change.removed` (adding a tag already there, or removing one that is
    /// not, changes nothing).
    func apply(_ change: TagChange) async throws
}
