/// An app-defined action as a type, for apps that prefer types to closures.
public protocol AppAction: Sendable {
    /// The identifier payloads and buttons use.
    var identifier: String { get }
    func perform(_ context: ActionContext) async throws
}
