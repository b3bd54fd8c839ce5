import Synchronization

/// The sink of one ``APNsClient/send(_:)``: resumes its caller with the result. A cancellation can end the
/// delivery before the caller's continuation exists, so a result that comes first waits for it.
final class SingleResult: DeliverySink, Sendable {
    private enum State {
        case empty
        case waiting(CheckedContinuation<APNsResult, Never>)
        case done(APNsResult)
        case resumed
    }
    private let state = Mutex(State.empty)

    func wait(_ continuation: CheckedContinuation<APNsResult, Never>) {
        let ready = state.withLock { state -> APNsResult? in
            guard case .done(let result) = state else {
                state = .waiting(continuation)
                return nil
            }
            state = .resumed
            return result
        }
        if let ready { continuation.resume(returning: ready) }
    }

    func finished(_ notification: APNsNotification, _ result: APNsResult, attempts: Int) {
        let waiting = state.withLock { state -> CheckedContinuation<APNsResult, Never>? in
            guard case .waiting(let continuation) = state else {
                if case .empty = state { state = .done(result) }
                return nil
            }
            state = .resumed
            return continuation
        }
        waiting?.resume(returning: result)
    }
}
