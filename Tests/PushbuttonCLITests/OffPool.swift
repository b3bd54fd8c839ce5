import Foundation

/// Runs blocking work (a child process to its end, a sleep) on a thread of its own, so a long hardening
/// test does not hold one of the few threads Swift's cooperative pool has (two on a two-core machine),
/// which would stall the timing of the async tests running next to it.
enum OffPool {
    static func run<Value: Sendable>(_ body: @escaping @Sendable () throws -> Value) async throws -> Value {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try body() }) }.start()
        }
    }

    /// `CLI.run` off the pool.
    static func cli(_ arguments: [String], stdin: String = "") async throws -> CLI.Result {
        try await run { try CLI.run(arguments, stdin: stdin) }
    }

    /// Any program to completion, off the pool.
    static func program(_ executable: URL, _ arguments: [String]) async throws -> CLI.Result {
        try await run { try CLI.run(executable, arguments) }
    }
}
