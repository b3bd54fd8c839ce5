import PushbuttonSupport

/// The sink of one ``APNsClient/send(_:)``: resumes its caller with the result. A cancellation can end the
/// delivery before the caller's continuation exists, so a result that comes first waits for it. A result
/// that comes on an event loop's thread resumes its caller as the loop's turn ends (``LoopTurn``): the loop
/// reads and answers a whole batch before it wakes the tasks that wait for them.
final class SingleResult: DeliverySink, LoopTurnObserver, Sendable {
    private enum State {
        case empty
        case waiting(CheckedContinuation<APNsResult, Never>)
        case done(APNsResult)
        /// The result came on a loop's thread: the caller is resumed as the loop's turn ends.
        case resuming(CheckedContinuation<APNsResult, Never>, APNsResult)
        case resumed
    }
    private let state = Locked(State.empty)

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

    func finished(_ delivery: Delivery, _ result: APNsResult, attempts: Int) {
        let turn = LoopTurn.current
        let (waiting, deferred) = state.withLock { state -> (CheckedContinuation<APNsResult, Never>?, Bool) in
            guard case .waiting(let continuation) = state else {
                if case .empty = state { state = .done(result) }
                return (nil, false)
            }
            if turn != nil {
                state = .resuming(continuation, result)
                return (nil, true)
            }
            state = .resumed
            return (continuation, false)
        }
        waiting?.resume(returning: result)
        if deferred, let turn { turn.deferToEnd(self) }
    }

    func turnEnded() {
        let ready = state.withLock { state -> (CheckedContinuation<APNsResult, Never>, APNsResult)? in
            guard case .resuming(let continuation, let result) = state else { return nil }
            state = .resumed
            return (continuation, result)
        }
        if let (continuation, result) = ready { continuation.resume(returning: result) }
    }
}
