import Dispatch
import Foundation
import PushbuttonAPNs
import PushbuttonReceiver
import Synchronization

/// Ctrl-C (SIGINT) or SIGTERM during `send`: stop reading input, let what is in flight finish (each
/// response is bounded by --timeout), and write every result that came back and the summary. A second
/// Ctrl-C ends the process at once.
final class SendStop: Sendable {
    private let requested = Atomic<Bool>(false)
    private let channel = Mutex<BoundedChannel<APNsNotification>?>(nil)
    /// Kept so the sources live as long as the command.
    private let sources = Locked<[any DispatchSourceSignal]>([])

    var isRequested: Bool { requested.load(ordering: .acquiring) }

    /// Starts listening for the signals; `onStop` runs once, on the first one.
    func install(onStop: @escaping @Sendable () -> Void) {
        for number in [SIGINT, SIGTERM] {
            signal(number, SIG_IGN)  // handled by the dispatch source instead of ending the process
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { [self] in
                guard !requested.exchange(true, ordering: .acquiringAndReleasing) else { return }
                // The next one gets the default action: a second Ctrl-C ends the process.
                signal(SIGINT, SIG_DFL)
                signal(SIGTERM, SIG_DFL)
                onStop()
                // A sender waiting for input that may never come (an idle pipe) is woken with "no more".
                channel.withLock { $0?.finish() }
            }
            source.resume()
            sources.withLock { $0.append(source) }
        }
        var unblocked = sigset_t()
        sigemptyset(&unblocked)
        sigaddset(&unblocked, SIGINT)
        sigaddset(&unblocked, SIGTERM)
        sigprocmask(SIG_UNBLOCK, &unblocked, nil)  // a parent may have started us with them blocked
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
