/// Tags kept in memory: for tests, the command line, and Linux.
public actor InMemoryTagStore: TagStore {
    private var current: Set<String>
    /// Every change, in order (`+tag` added, `-tag` removed), so a test can see what a tap did.
    public private(set) var changes: [String] = []

    public init(_ tags: Set<String> = []) { current = tags }

    public func tags() async throws -> Set<String> { current }

    public func add(_ tags: [String]) async throws {
        for tag in tags where current.insert(tag).inserted { changes.append("+" + tag) }
    }

    public func remove(_ tags: [String]) async throws {
        for tag in tags where current.remove(tag) != nil { changes.append("-" + tag) }
    }
}
