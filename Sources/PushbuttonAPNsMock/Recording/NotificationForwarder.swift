import Pushbutton
import PushbuttonSupport

/// Hands accepted notifications to simulated devices, in the order the mock accepted them.
///
/// The server's thread only yields into a stream; one task delivers to the devices' actors, so a slow
/// device never holds up HTTP/2.
final class NotificationForwarder: Sendable {
    private struct Device {
        /// Lowercase hex; nil receives every notification.
        var token: String?
        var receive: @Sendable (RecordedNotification) async -> Void
    }

    private struct State {
        var devices: [Device] = []
        var forwarded = 0
        var delivered = 0
        /// Callers of ``settle()`` waiting for `delivered` to reach `forwarded`.
        var settling: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Locked(State())
    private let continuation: AsyncStream<RecordedNotification>.Continuation

    init() {
        let (stream, continuation) = AsyncStream<RecordedNotification>.makeStream()
        self.continuation = continuation
        Task { [state] in
            for await notification in stream {
                let receivers = state.withLock { state in
                    state.devices.filter { $0.token == nil || $0.token == notification.deviceToken }.map(\.receive)
                }
                for receive in receivers { await receive(notification) }
                let settled = state.withLock { state -> [CheckedContinuation<Void, Never>] in
                    state.delivered += 1
                    guard state.delivered == state.forwarded else { return [] }
                    defer { state.settling.removeAll() }
                    return state.settling
                }
                for waiter in settled { waiter.resume() }
            }
        }
    }

    deinit {
        continuation.finish()
    }

    func attach(token: String?, _ receive: @escaping @Sendable (RecordedNotification) async -> Void) {
        state.withLock { $0.devices.append(Device(token: token?.lowercased(), receive: receive)) }
    }

    func forward(_ notification: RecordedNotification) {
        let wanted = state.withLock { state -> Bool in
            guard !state.devices.isEmpty else { return false }
            state.forwarded += 1
            return true
        }
        if wanted { continuation.yield(notification) }
    }

    /// Waits until every notification forwarded so far has reached its devices.
    func settle() async {
        await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
            let settled = state.withLock { state -> Bool in
                guard state.delivered < state.forwarded else { return true }
                state.settling.append(waiter)
                return false
            }
            if settled { waiter.resume() }
        }
    }

    func finish() {
        continuation.finish()
    }
}
