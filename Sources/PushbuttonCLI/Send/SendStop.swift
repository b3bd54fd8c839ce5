import Dispatch
import Foundation
import PushbuttonAPNs
import PushbuttonSupport
import Synchronization

/// Ctrl-C (SIGINT) or SIGTERM during `send`: stop reading input, let what is in flight finish (each
/// response is bounded by --timeout), and write every result that came back and the summary. A second
/// Ctrl-C ends the process at once.
final class SendStop: Sendable {
    private let requested = Atomic<Bool>(false)
    private let channel = Locked<BoundedChannel<APNsNotification>?>(nil)
    /// Kept so the signal sources live as long as the command.
    private let signals = Locked<SignalSources?>(nil)

    var isRequested: Bool { requested.load(ordering: .acquiring) }

    /// Starts listening for the signals; `onStop` runs once, on the first one (the next one ends the process).
    func install(onStop: @escaping @Sendable () -> Void) {
        let sources = SignalSources { [self] in
            requested.store(true, ordering: .releasing)
            onStop()
            // A sender waiting for input that may never come (an idle pipe) is woken with "no more".
            channel.withLock { $0?.finish() }
        }
        signals.withLock { $0 = sources }
    }

    /// The input channel, to be finished early when a stop is requested.
    func watch(_ channel: BoundedChannel<APNsNotification>) {
        self.channel.withLock { $0 = channel }
        if isRequested { channel.finish() }
    }

    /// `notifications` until a stop is requested, then nothing more.
    func limit(_ notifications: BoundedChannel<APNsNotification>) -> Notifications {
        watch(notifications)
        return Notifications(base: notifications, stop: self)
    }

    struct Notifications: AsyncSequence, Sendable {
        typealias Element = APNsNotification
        let base: BoundedChannel<APNsNotification>
        let stop: SendStop

        struct AsyncIterator: AsyncIteratorProtocol {
            var base: BoundedChannel<APNsNotification>.AsyncIterator
            let stop: SendStop

            mutating func next() async -> APNsNotification? {
                guard !stop.isRequested, let next = await base.next() else { return nil }
                // Read before the stop but handed over after it: not sent, like the rest of the input.
                return stop.isRequested ? nil : next
            }
        }

        func makeAsyncIterator() -> AsyncIterator { AsyncIterator(base: base.makeAsyncIterator(), stop: stop) }
    }
}
