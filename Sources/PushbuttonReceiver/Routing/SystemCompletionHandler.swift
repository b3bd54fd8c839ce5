/// A completion handler the system gave the app, carried across tasks.
///
/// `@unchecked Sendable`: UIKit's and UserNotifications' completion handlers are Objective-C blocks that
/// Apple documents as safe to call from any thread; they are only not annotated `@Sendable`. Pushbutton
/// calls each one at most once (through ``CompletionHandlerOnce``).
public struct SystemCompletionHandler: @unchecked Sendable {
    private let handler: () -> Void

    public init(_ handler: @escaping () -> Void) { self.handler = handler }

    /// Calls the system's handler.
    public func callAsFunction() { handler() }
}
