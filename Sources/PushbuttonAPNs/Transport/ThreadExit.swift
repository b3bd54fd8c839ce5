import Dispatch

/// Lets async code wait, off Swift's cooperative threads, until a transport's or server's own thread has
/// ended; any number of callers may wait, before or after it ends.
package final class ThreadExit: Sendable {
    private let semaphore = DispatchSemaphore(value: 0)

    package init() {}

    /// Called by the thread as its last act.
    package func signal() { semaphore.signal() }

    package func wait() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            DispatchQueue.global().async { [semaphore] in
                semaphore.wait()
                semaphore.signal()  // pass it on to the next waiter
                continuation.resume()
            }
        }
    }
}
