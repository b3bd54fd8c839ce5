import Foundation
import PushbuttonAPNs
import Synchronization

/// A fixed set of threads that run blocking work: the routes' handlers, and the workers' store calls.
///
/// Not Dispatch's global queues nor Swift's cooperative pool: on Linux each runs only as many items at once as
/// there are cores, and this work blocks (an fsync, a PostgreSQL round trip), so a few slow calls would hold
/// up every other user of the pool in the process (the APNs client's retry timers among them).
/// ``stop()`` ends the threads once the jobs already queued have run.
final class HandlerThreads: Sendable {
    private final class Queue: @unchecked Sendable {
        // `@unchecked Sendable`: `jobs`, `head` and `stopping` are only touched under `condition`'s lock.
        let condition = NSCondition()
        var jobs: [@Sendable () -> Void] = []
        var head = 0
        var stopping = false
    }

    private let queue = Queue()
    private let running: Atomic<Int>
    private let exits: [ThreadExit]

    /// `name` is at most 12 bytes (Linux keeps 15 of a thread's name; the index follows it).
    init(count: Int, name: String) {
        let count = max(1, count)
        running = Atomic(count)
        exits = (0..<count).map { _ in ThreadExit() }
        for index in 0..<count {
            let queue = self.queue
            let exit = exits[index]
            let thread = Thread { [self] in
                // Named from inside: on Linux a name set before start() is not applied, and one longer than 15
                // bytes is refused (the thread would keep its creator's name, a Dispatch queue's in profiles).
                Thread.current.name = "\(name)-\(index)"
                while let job = Self.next(queue) { job() }
                running.subtract(1, ordering: .releasing)
                exit.signal()
            }
            thread.start()
        }
    }

    /// The next job, waiting for one; `nil` once stopping and nothing is left.
    private static func next(_ queue: Queue) -> (@Sendable () -> Void)? {
        queue.condition.lock()
        defer { queue.condition.unlock() }
        while queue.head == queue.jobs.count {
            if queue.stopping { return nil }
            queue.condition.wait()
        }
        let job = queue.jobs[queue.head]
        queue.head += 1
        if queue.head > 1024 && queue.head * 2 > queue.jobs.count {
            queue.jobs.removeFirst(queue.head)
            queue.head = 0
        }
        return job
    }

    /// How many of the threads are still running (0 after ``stop()`` returned).
    var runningThreads: Int { running.load(ordering: .acquiring) }

    /// Queues a job. After ``stop()`` it runs on the caller's thread instead, so nothing queued is lost.
    func run(_ job: @escaping @Sendable () -> Void) {
        queue.condition.lock()
        guard !queue.stopping else {
            queue.condition.unlock()
            return job()
        }
        queue.jobs.append(job)
        queue.condition.signal()
        queue.condition.unlock()
    }

    /// Runs blocking `body` on one of the threads and returns its result; the calling task is suspended, no
    /// thread of Swift's pool waits.
    func perform<Result: Sendable, Failure: Error>(_ body: @escaping @Sendable () throws(Failure) -> Result)
        async throws(Failure) -> Result
    {
        let outcome = await withCheckedContinuation {
            (continuation: CheckedContinuation<Swift.Result<Result, Failure>, Never>) in
            run {
                do throws(Failure) {
                    continuation.resume(returning: .success(try body()))
                } catch {
                    continuation.resume(returning: .failure(error))
                }
            }
        }
        return try outcome.get()
    }

    /// Lets the queued jobs run, then ends every thread; returns when they have ended.
    func stop() async {
        Self.markStopping(queue)
        for exit in exits { await exit.wait() }
    }

    private static func markStopping(_ queue: Queue) {
        queue.condition.lock()
        queue.stopping = true
        queue.condition.broadcast()
        queue.condition.unlock()
    }
}
