import Foundation

/// Requests that arrive while a group of earlier ones is being committed wait and share the next group: one
/// transaction (SQLite: one fsync) for all of them instead of one each. A caller that finds fewer than
/// ``maximumLeaders`` groups running leads the next one (runs it on its own thread); every caller returns only
/// once its own request's group has run, with its own answer or error.
///
/// `@unchecked Sendable`: every stored property is reached only under `condition`'s lock, and a request is
/// handed to the leading thread and its answer back under that lock.
final class GroupCommit<Request, Answer>: @unchecked Sendable {
    private let condition = NSCondition()
    private var pending: [(ticket: Int, request: Request, weight: Int)] = []
    private var answers: [Int: Result<Answer, StoreError>] = [:]
    /// Groups running now.
    private var leading = 0
    private var nextTicket = 0
    /// The most weight (rows, say) one group takes; a request heavier than this runs alone.
    let maximumWeight: Int
    /// The most groups running at once: 1 for SQLite's one writer; more for PostgreSQL, whose transactions
    /// run side by side and whose round trips would otherwise cap the intake at one group's.
    let maximumLeaders: Int
    /// Groups run so far, and how many requests they held: a group commit that never groups shows here.
    private var groups = 0
    private var grouped = 0

    init(maximumWeight: Int, maximumLeaders: Int = 1) {
        self.maximumWeight = maximumWeight
        self.maximumLeaders = max(1, maximumLeaders)
    }

    /// Submits `request` and waits for its answer. `run` gets a group of requests, oldest first (this one
    /// among them, or others before it while this one waits), and returns one result per request, in order.
    func submit(
        _ request: Request, weight: Int, run: ([Request]) -> [Result<Answer, StoreError>]
    ) throws(StoreError) -> Answer {
        condition.lock()
        let ticket = nextTicket
        nextTicket += 1
        pending.append((ticket, request, weight))
        while true {
            if let answer = answers.removeValue(forKey: ticket) {
                condition.unlock()
                return try answer.get()
            }
            // Its request is in a running group (nothing pending is older), or every leader is busy.
            guard leading < maximumLeaders, !pending.isEmpty else {
                condition.wait()
                continue
            }
            leading += 1
            var count = 0
            var total = 0
            while count < pending.count, count == 0 || total + pending[count].weight <= maximumWeight {
                total += pending[count].weight
                count += 1
            }
            let group = Array(pending.prefix(count))
            pending.removeFirst(count)
            condition.unlock()
            let results = run(group.map(\.request))
            condition.lock()
            for (index, entry) in group.enumerated() {
                answers[entry.ticket] =
                    index < results.count
                    ? results[index]
                    : .failure(StoreError(.inconsistent, "a group commit lost an answer", context: "group commit"))
            }
            groups += 1
            grouped += group.count
            leading -= 1
            // The group's callers take their answers; one of those still pending leads the next group.
            condition.broadcast()
        }
    }

    /// Groups run, the requests they held, the requests waiting for a group and the groups running now, read
    /// under the lock.
    var counts: (groups: Int, requests: Int, waiting: Int, leading: Int) {
        condition.lock()
        defer { condition.unlock() }
        return (groups, grouped, pending.count, leading)
    }
}
