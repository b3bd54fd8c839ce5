import Dispatch
import Foundation
import Pushbutton
import PushbuttonSupport

/// Waits for Ctrl-C (SIGINT) or SIGTERM, or until a timeout, for commands that run until stopped. A second
/// signal, during the stop that follows, ends the process at once.
enum StopSignal {
    static func wait(timeout: Duration?) async {
        let stream = AsyncStream<Void> { continuation in
            let signals = SignalSources { continuation.finish() }
            if let timeout {
                DispatchQueue.global().asyncAfter(deadline: .now() + timeout.seconds) { continuation.finish() }
            }
            // Once the waiting is over, the stop that follows can still be interrupted: a signal now has
            // its default action.
            continuation.onTermination = { _ in signals.cancel() }
        }
        for await _ in stream {}
    }

}
