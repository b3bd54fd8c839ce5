import Synchronization

extension Delivery {
    /// Tells `observer` what `action` means for the notification: an attempt sent, a retry coming, the
    /// definite result with its latency.
    func report(_ action: DeliveryState.Action, to observer: any APNsObserver) {
        let id = notification.apnsID
        let token = notification.deviceToken
        switch action {
        case .send:
            observer.observe(.sent(apnsID: id, deviceToken: token, attempt: state.withLock { $0.attempt }))
        case .retry, .refreshToken:
            observer.observe(.retried(apnsID: id, attempt: state.withLock { $0.attempt } + 1))
        case .finish(let result):
            let latency = started.map { ContinuousClock.now - $0 } ?? .zero
            switch result {
            case .delivered:
                observer.observe(
                    .delivered(
                        apnsID: id, deviceToken: token, attempts: state.withLock { $0.attempt }, latency: latency))
            case .rejected(_, let status, let reason, _):
                observer.observe(
                    .rejected(apnsID: id, deviceToken: token, status: status, reason: reason, latency: latency))
            case .failed(_, let attempts, let cause):
                observer.observe(
                    .failed(apnsID: id, deviceToken: token, cause: cause.kind, attempts: attempts, latency: latency))
            }
        case .obtainToken, .none:
            break
        }
    }
}
