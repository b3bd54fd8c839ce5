import Foundation
import PushbuttonTestSupport

/// Runs blocking work (a child process to its end, a sleep) on a thread of its own, so a long hardening
/// test does not hold one of the few threads Swift's cooperative pool has (two on a two-core machine),
/// which would stall the timing of the async tests running next to it. The shared test support does the work.
enum OffPool {
    static func run<Value: Sendable>(_ body: @escaping @Sendable () throws -> Value) async throws -> Value {
        try await PushbuttonTestSupport.OffPool.run(body)
    }

    /// `pushbutton` with `arguments`, to completion, without blocking the pool.
    static func cli(_ arguments: [String], stdin: String = "") async throws -> CLI.Result {
        try await program(CLI.productsDirectory.appendingPathComponent("pushbutton"), arguments, stdin: stdin)
    }

    /// Any program to completion, in the package root, without blocking the pool.
    static func program(_ executable: URL, _ arguments: [String], stdin: String = "") async throws -> CLI.Result {
        let result = try await Subprocess.run(executable, arguments, stdin: stdin, in: CLI.packageRoot)
        return CLI.Result(status: result.status, stdout: result.stdout, stderr: result.stderr)
    }
}
