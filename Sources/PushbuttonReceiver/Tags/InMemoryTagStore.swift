/// Tags kept in memory: for tests, the command line, and Linux.
public actor InMemoryTagStore: TagStore {
    private var current: Set<String>
    /// Every change that changed something, in order (`+tag` added, `-tag` removed), so a test can see what a
    /// tap did.
    public private(set) var changes: [String] = []

    public init(_ tags: Set<String> = []) { current = tags }

    public func tags() async throws -> Set<String> { current }

    public func apply(_ change: TagChange) async throws {
        for tag in change.added where current.insert(tag).inserted { changes.append("+" + tag) }
        for tag in change.removed where current.remove(tag) != nil { changes.append("-" + tag) }
    }
}
