import Dispatch
import Foundation
import Pushbutton
import PushbuttonReceiver

/// Waits for Ctrl-C (SIGINT) or SIGTERM, or until a timeout, for commands that run until stopped.
enum StopSignal {
    static func wait(timeout: Duration?) async {
        let stream = AsyncStream<Void> { continuation in
            let sources = Locked<[any DispatchSourceSignal]>([])
            for number in [SIGINT, SIGTERM] {
                signal(number, SIG_IGN)  // handled by the dispatch source instead of ending the process
                let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
                source.setEventHandler { continuation.finish() }
                source.resume()
                sources.withLock { $0.append(source) }
            }
            var unblocked = sigset_t()
            sigemptyset(&unblocked)
            sigaddset(&unblocked, SIGINT)
            sigaddset(&unblocked, SIGTERM)
            sigprocmask(SIG_UNBLOCK, &unblocked, nil)  // a parent may have started us with them blocked
            if let timeout {
                DispatchQueue.global().asyncAfter(deadline: .now() + timeout.seconds) { continuation.finish() }
            }
            continuation.onTermination = { _ in sources.withLock { $0.forEach { $0.cancel() } } }
        }
        for await _ in stream {}
    }

}
