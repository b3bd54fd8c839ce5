import Foundation

extension CLI {
    /// Runs `body`, which waits for processes, on a thread of its own and awaits it. A test that waited on
    /// its own would hold one of the few threads Swift concurrency runs every test's tasks on (two, on a
    /// 2-core machine), and stall the timers of every asynchronous test meanwhile.
    static func detached<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Swift.Result { try body() }) }.start()
        }
    }

    /// ``run(_:stdin:)`` without holding a concurrency thread while the command runs.
    static func runDetached(_ arguments: [String], stdin: String = "") async throws -> Result {
        try await detached { try run(arguments, stdin: stdin) }
    }
}
