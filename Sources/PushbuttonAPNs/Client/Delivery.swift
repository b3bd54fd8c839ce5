import Foundation
import Pushbutton
import PushbuttonSupport
import Synchronization

/// Executes one notification's ``DeliveryState``: it feeds the state machine its events (a token, an
/// answer, a backoff's end, a cancellation) and carries out the action that comes back. Attempts go through
/// the transport's notification path when it has one, so an attempt allocates nothing here.
final class Delivery: @unchecked Sendable {
    // `@unchecked Sendable`: `notification` and `started` change only in ``restartAndStart(with:)``, while the
    // delivery is finished and owned by the bulk pump that restarts it (handed over under the pump's lock, before
    // `start`); the state is behind its mutex, the rest is constant.
    /// Read in place by the transport while an attempt is under way (the stream holds no copy of it); written
    /// only by ``restartAndStart(with:)`` on a finished delivery nothing else refers to, hence no runtime
    /// exclusivity check on it.
    @exclusivity(unchecked) private(set) var notification: APNsNotification
    let client: APNsClient
    private let sink: any DeliverySink
    /// Events can arrive on two threads at once (an answer on the transport's, a cancellation on the
    /// caller's), so the state machine is behind a lock; actions run outside it.
    let state: Mutex<DeliveryState>
    /// When the client took the notification: read only when an observer wants latencies.
    private(set) var started: ContinuousClock.Instant?

    init(_ notification: APNsNotification, client: APNsClient, sink: any DeliverySink) {
        self.notification = notification
        self.client = client
        self.sink = sink
        started = client.isObserved ? .now : nil
        state = Mutex(
            DeliveryState(apnsID: notification.apnsID, policy: client.retryPolicy, usesTokens: client.tokens != nil))
    }

    /// Starts `notification` on `spare` (a finished delivery of the same pump) when there is one, on a new
    /// delivery otherwise: what both bulk pumps do for every notification they take.
    static func start(
        _ notification: consuming APNsNotification, reusing spare: Delivery?, client: APNsClient,
        sink: any DeliverySink
    ) {
        if let spare {
            spare.restartAndStart(with: consume notification)
        } else {
            Delivery(notification, client: client, sink: sink).start()
        }
    }

    /// Makes a finished delivery a new one for `notification` and starts it (a bulk pump reuses its
    /// deliveries, which saves an allocation per notification): one lock for the new state and its start. Only
    /// on a finished delivery nothing else refers to.
    private func restartAndStart(with notification: consuming APNsNotification) {
        let apnsID = notification.apnsID
        self.notification = consume notification  // moved in: no copy of its strings and bytes
        started = client.isObserved ? .now : nil
        let token = freshToken()
        step { state in
            state.reset(apnsID: apnsID)  // in place: the state is not copied into the lock
            return state.start(freshToken: token)
        }
    }

    func start() {
        let fresh = freshToken()
        step { $0.start(freshToken: fresh) }
    }

    /// The provider's token when it can be had without waiting: on a transport's loop thread read once per
    /// loop turn, elsewhere from the provider.
    private func freshToken() -> ProviderToken? {
        guard let tokens = client.tokens else { return nil }
        if let turn = LoopTurn.current { return turn.freshToken(from: tokens) }
        return tokens.freshToken()
    }

    /// The caller's task was cancelled (see ``DeliveryState/cancel()``).
    func cancel() {
        step { $0.cancel() }
    }

    /// The outcome of the attempt under way, from the transport (on its thread).
    func received(_ outcome: Result<APNsResponse, APNsError>) {
        let jitter = client.jitter
        step { $0.received(outcome, jitter: jitter()) }
    }

    /// Feeds the state machine one event and carries out its action; the attempt count is read under the same
    /// lock, for a result.
    @inline(__always)
    private func step(_ event: (inout DeliveryState) -> DeliveryState.Action) {
        let (action, attempt) = state.withLock { state in (event(&state), state.attempt) }
        perform(action, attempt: attempt)
    }

    private func perform(_ action: DeliveryState.Action, attempt: Int) {
        if client.isObserved, let observer = client.observer { report(action, to: observer) }
        switch action {
        case .none: return
        case .send(let token): send(token: token)
        case .finish(let result):
            sink.finished(self, result, attempts: attempt)
        case .retry(let delay):
            // On the client's clock (a `ManualClock` in tests). Nothing cancels the wait: a cancellation meanwhile
            // is the state machine's to handle when the backoff ends.
            client.clock.run(after: delay) { [self] in step { $0.backoffEnded() } }
        case .obtainToken:
            guard let tokens = client.tokens else { return }
            Task {
                do {
                    let token = try await tokens.token()
                    step { $0.tokenObtained(token) }
                } catch {
                    step { $0.tokenFailed("\(error)") }
                }
            }
        case .refreshToken(let rejected):
            guard let tokens = client.tokens else { return }
            Task {
                if let fresh = try? await tokens.tokenAfterExpiry(of: rejected) {
                    step { $0.tokenObtained(fresh) }
                } else {
                    step { $0.refreshFailed() }
                }
            }
        }
    }

    private func send(token: ProviderToken?) {
        if let transport = client.notificationTransport {
            return transport.submit(self, authorization: token?.authorization, timeout: client.requestTimeout)
        }
        let request = HTTPRequest(
            path: notification.path, headers: notification.headers(token: token), body: notification.payload,
            timeout: client.requestTimeout)
        client.transport.submit(request) { [self] outcome in
            received(outcome.map { APNsResponse(status: $0.status, headers: $0.headers, body: $0.body) })
        }
    }
}
