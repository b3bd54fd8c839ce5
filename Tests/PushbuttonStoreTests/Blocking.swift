import Dispatch

/// Runs blocking work (a process start or wait, a synchronous store call) on a Dispatch thread, so it never
/// holds one of Swift's few cooperative threads while the other tests' timers and tasks wait for them.
enum Blocking {
    static func run<Result: Sendable>(_ body: @escaping @Sendable () throws -> Result) async throws -> Result {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                do { continuation.resume(returning: try body()) } catch { continuation.resume(throwing: error) }
            }
        }
    }
}
