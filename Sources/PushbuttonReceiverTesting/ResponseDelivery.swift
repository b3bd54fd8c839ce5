import PushbuttonReceiver

/// What happened when the simulated device handed a response to the app.
public struct ResponseDelivery: Sendable, Hashable {
    /// Whether, and when, the app called the completion handler.
    public enum Completion: Sendable, Hashable {
        /// Called, this long after the response was delivered.
        case called(after: Duration)
        /// Not called within the system's window: iOS would have ended the app.
        case expired
        /// No response handler was set, so nobody saw the response.
        case noHandler
    }

    /// A number identifying this delivery in ``SimulatedNotificationCenter/completionCallCount(_:)``.
    public var number: Int
    public var response: NotificationResponse
    public var completion: Completion
}
