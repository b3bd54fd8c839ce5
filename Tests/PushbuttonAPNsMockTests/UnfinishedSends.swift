import Synchronization

/// How many of a test's sends have not returned yet: it only falls, which
/// ``MockFixture/expireSilencedRequests(clock:mock:unfinished:)`` relies on.
final class UnfinishedSends: Sendable {
    private let count: Mutex<Int>

    init(_ count: Int) { self.count = Mutex(count) }

    var value: Int { count.withLock { $0 } }

    /// One send returned.
    func finished() { count.withLock { $0 -= 1 } }
}
