/// One run of a scheduled background task (on iOS, a `BGTask`): the system says when its time is running out, and
/// the work says once that it is done.
public protocol BackgroundTaskRun: Sendable {
    /// Sets what to call shortly before the run's time runs out: stop the work and complete the run.
    func setExpiration(_ handler: @escaping @Sendable () -> Void)
    /// Tells the system the run is done (call exactly once).
    func complete(success: Bool)
}
