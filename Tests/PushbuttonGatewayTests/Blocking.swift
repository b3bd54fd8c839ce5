import Foundation
import PushbuttonTestSupport

/// Runs blocking work (a process start or wait, a synchronous store call) on a thread of its own: never on one
/// of Swift's few cooperative threads, nor on Dispatch's global pool (as wide as the cores on Linux), whose
/// timers the other suites' APNs clients need. The shared test support's ``OffPool`` does the work.
enum Blocking {
    static func run<Result: Sendable>(_ body: @escaping @Sendable () throws -> Result) async throws -> Result {
        try await OffPool.run(body)
    }
}
