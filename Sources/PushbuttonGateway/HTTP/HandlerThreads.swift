import Foundation

/// A fixed set of threads that run the routes' handlers.
///
/// Not Dispatch's global queues: on Linux their default pool runs as many items at once as there are cores,
/// and a handler blocks (an fsync, a PostgreSQL round trip), so a few slow requests would hold up every
/// other Dispatch user in the process (the APNs client's retry timers among them).
final class HandlerThreads: Sendable {
    private final class Queue: @unchecked Sendable {
        // `@unchecked Sendable`: `jobs` is only touched under `condition`'s lock.
        let condition = NSCondition()
        var jobs: [@Sendable () -> Void] = []
        var head = 0
    }

    private let queue = Queue()

    init(count: Int, name: String) {
        for index in 0..<max(1, count) {
            let queue = self.queue
            let thread = Thread {
                while true {
                    queue.condition.lock()
                    while queue.head == queue.jobs.count { queue.condition.wait() }
                    let job = queue.jobs[queue.head]
                    queue.head += 1
                    if queue.head > 1024 && queue.head * 2 > queue.jobs.count {
                        queue.jobs.removeFirst(queue.head)
                        queue.head = 0
                    }
                    queue.condition.unlock()
                    job()
                }
            }
            thread.name = "\(name)-\(index)"
            thread.start()
        }
    }

    func run(_ job: @escaping @Sendable () -> Void) {
        queue.condition.lock()
        queue.jobs.append(job)
        queue.condition.signal()
        queue.condition.unlock()
    }
}
