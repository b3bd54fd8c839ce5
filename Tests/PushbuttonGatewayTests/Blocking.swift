import Foundation

/// Runs blocking work (a process start or wait, a synchronous store call) on a thread of its own: never on one
/// of Swift's few cooperative threads, nor on Dispatch's global pool (as wide as the cores on Linux), whose
/// timers the other suites' APNs clients need.
enum Blocking {
    static func run<Result: Sendable>(_ body: @escaping @Sendable () throws -> Result) async throws -> Result {
        try await withCheckedThrowingContinuation { continuation in
            Thread {
                do { continuation.resume(returning: try body()) } catch { continuation.resume(throwing: error) }
            }.start()
        }
    }
}
