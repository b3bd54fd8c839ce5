import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// How a child process ended, read with `waitpid` rather than `Process.waitUntilExit()`: on Linux the latter
/// can miss the exit of a child that ends while other threads are starting processes, and then waits forever
/// on a zombie (seen in the parallel test run). Whichever of the two reaps the child first, the other learns
/// how it ended. The test suites and tools that run many processes wait here.
package struct ProcessExit: Sendable, Equatable {
    /// The exit code, or the number of the signal that ended the process.
    package var status: Int32
    /// Whether a signal ended the process.
    package var signaled: Bool

    package init(status: Int32, signaled: Bool) {
        self.status = status
        self.signaled = signaled
    }

    /// Blocks until `process` (started with `run()`) ends, and reaps it.
    @discardableResult
    package static func wait(for process: Process) -> ProcessExit {
        var status: Int32 = 0
        while waitpid(process.processIdentifier, &status, 0) < 0 {
            guard errno == EINTR else {
                // Foundation's own SIGCHLD handler reaped it first (ECHILD): then Foundation knows how it ended.
                process.waitUntilExit()
                return ProcessExit(
                    status: process.terminationStatus, signaled: process.terminationReason == .uncaughtSignal)
            }
        }
        return ProcessExit(waitStatus: status)
    }

    /// Blocks until `process` ends, and reaps it (see ``ChildProcess``, which tests use instead of `Process`).
    @discardableResult
    package static func wait(for process: ChildProcess) -> ProcessExit { process.waitForExit() }

    /// How a process ended, from the status `waitpid` gave.
    package init(waitStatus status: Int32) {
        let signal = status & 0x7F
        self =
            signal == 0
            ? ProcessExit(status: (status >> 8) & 0xFF, signaled: false) : ProcessExit(status: signal, signaled: true)
    }
}
