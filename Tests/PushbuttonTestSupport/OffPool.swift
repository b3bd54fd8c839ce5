import Foundation

/// Runs blocking work (a synchronous process run, `waitpid`, a blocking socket or database call) on a thread of
/// its own and awaits it, so it never holds one of the cooperative pool's threads (two on this machine): a
/// blocked pool thread stalls every timed test running beside it.
package enum OffPool {
    package static func run<Value: Sendable>(_ body: @escaping @Sendable () throws -> Value) async throws -> Value {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try body() }) }.start()
        }
    }
}
