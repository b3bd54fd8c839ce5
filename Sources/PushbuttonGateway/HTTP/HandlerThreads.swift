internal import CH2O
import Foundation

/// A fixed set of threads that run blocking work: the routes' handlers, and the workers' store calls.
///
/// Not Dispatch's global queues nor Swift's cooperative pool: on Linux each runs only as many items at once as
/// there are cores, and this work blocks (an fsync, a PostgreSQL round trip), so a few slow calls would hold
/// up every other user of the pool in the process (the APNs client's retry timers among them).
/// ``stop()`` ends the threads once the jobs already queued have run.
final class HandlerThreads: Sendable {
    private final class Queue: @unchecked Sendable {
        // `@unchecked Sendable`: every variable is only touched under `condition`'s lock (a pthread mutex,
        // which ThreadSanitizer sees, unlike the futex inside Synchronization's Mutex).
        let condition = NSCondition()
        var jobs: [@Sendable () -> Void] = []
        var head = 0
        var stopping = false
        var running = 0
        var stopped: [CheckedContinuation<Void, Never>] = []
    }

    private let queue = Queue()

    /// `name` is at most 12 bytes (Linux keeps 15 of a thread's name; the index follows it).
    init(count: Int, name: String) {
        let count = max(1, count)
        queue.running = count
        for index in 0..<count {
            let queue = self.queue
            let thread = Thread {
                // Named from inside, in the kernel: on Linux a Thread.name set before start() is not applied,
                // and one over 15 bytes is refused (the thread keeps its creator's name, a Dispatch queue's).
                pb_thread_set_name("\(name)-\(index)")
                while let job = Self.next(queue) { job() }
                Self.exited(queue)
            }
            thread.start()
        }
    }

    /// What a slot of `jobs` holds once its job was taken.
    private static let taken: @Sendable () -> Void = {}

    /// The next job, waiting for one; `nil` once stopping and nothing is left.
    private static func next(_ queue: Queue) -> (@Sendable () -> Void)? {
        queue.condition.lock()
        defer { queue.condition.unlock() }
        while queue.head == queue.jobs.count {
            if queue.stopping { return nil }
            queue.condition.wait()
        }
        let job = queue.jobs[queue.head]
        // The slot lets go of the job now: a job holds what it captured (a worker's batch of outcomes, a page
        // of a campaign's recipients), and the slots before `head` are only dropped every 1024 jobs.
        queue.jobs[queue.head] = Self.taken
        queue.head += 1
        if queue.head > 1024 && queue.head * 2 > queue.jobs.count {
            queue.jobs.removeFirst(queue.head)
            queue.head = 0
        }
        return job
    }

    /// The calling thread's name as the kernel has it ("pb-store-0" on one of these threads).
    static var currentThreadName: String {
        var buffer = [CChar](repeating: 0, count: 16)
        pb_thread_name(&buffer, buffer.count)
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// A thread's last act: the last one to end resumes whoever waits in ``stop()``.
    private static func exited(_ queue: Queue) {
        queue.condition.lock()
        queue.running -= 1
        let waiters = queue.running == 0 ? queue.stopped : []
        if queue.running == 0 { queue.stopped = [] }
        queue.condition.unlock()
        for waiter in waiters { waiter.resume() }
    }

    /// How many of the threads are still running (0 after ``stop()`` returned).
    var runningThreads: Int {
        queue.condition.lock()
        defer { queue.condition.unlock() }
        return queue.running
    }

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

    /// Queues a job unless `limit` jobs already wait for a thread; returns whether it was queued. After
    /// ``stop()`` it runs on the caller's thread, as with ``run(_:)``.
    func run(_ job: @escaping @Sendable () -> Void, ifFewerWaitingThan limit: Int) -> Bool {
        queue.condition.lock()
        guard !queue.stopping else {
            queue.condition.unlock()
            job()
            return true
        }
        guard queue.jobs.count - queue.head < limit else {
            queue.condition.unlock()
            return false
        }
        queue.jobs.append(job)
        queue.condition.signal()
        queue.condition.unlock()
        return true
    }

    /// How many jobs wait for a thread.
    var waitingJobs: Int {
        queue.condition.lock()
        defer { queue.condition.unlock() }
        return queue.jobs.count - queue.head
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
        let queue = self.queue
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            Self.stop(queue, then: continuation)
        }
    }

    private static func stop(_ queue: Queue, then continuation: CheckedContinuation<Void, Never>) {
        queue.condition.lock()
        queue.stopping = true
        queue.condition.broadcast()
        let ended = queue.running == 0
        if !ended { queue.stopped.append(continuation) }
        queue.condition.unlock()
        if ended { continuation.resume() }
    }
}
