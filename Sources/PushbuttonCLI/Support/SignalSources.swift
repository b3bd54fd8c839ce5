import Dispatch
import Foundation
import PushbuttonSupport

/// Ctrl-C (SIGINT) and SIGTERM for commands that stop gracefully: the first one runs `onFirst` (and only
/// once); from then on both have their default action again, so a second Ctrl-C ends the process at once
/// even while the graceful stop is still waiting (for in-flight sends, workers, leases).
final class SignalSources: Sendable {
    /// A signal source, handed between threads. `@unchecked Sendable` because dispatch sources are thread-safe
    /// objects (any thread may cancel one), which Dispatch on Linux does not declare.
    private struct Source: @unchecked Sendable {
        let source: any DispatchSourceSignal
    }

    /// Kept so the sources live as long as the command.
    private let sources = Locked<[Source]>([])
    private let fired = Locked(false)

    /// Starts listening. A parent may have started the process with the signals blocked: they are unblocked.
    init(onFirst: @escaping @Sendable () -> Void) {
        for number in [SIGINT, SIGTERM] {
            signal(number, SIG_IGN)  // handled by the dispatch source instead of ending the process
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { [fired] in
                guard
                    fired.withLock({ fired in
                        defer { fired = true }; return !fired
                    })
                else { return }
                signal(SIGINT, SIG_DFL)
                signal(SIGTERM, SIG_DFL)
                onFirst()
            }
            source.resume()
            sources.withLock { $0.append(Source(source: source)) }
        }
        var unblocked = sigset_t()
        sigemptyset(&unblocked)
        sigaddset(&unblocked, SIGINT)
        sigaddset(&unblocked, SIGTERM)
        sigprocmask(SIG_UNBLOCK, &unblocked, nil)
    }

    /// Stops listening; a signal from now on has its default action.
    func cancel() {
        sources.withLock { $0.forEach { $0.source.cancel() } }
        signal(SIGINT, SIG_DFL)
        signal(SIGTERM, SIG_DFL)
    }
}
