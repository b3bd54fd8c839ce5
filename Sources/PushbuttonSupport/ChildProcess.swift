import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A child process started with `posix_spawn`, with the part of `Foundation.Process`'s interface the test suites
/// and tools use (executable, arguments, environment, directory, standard streams, signals, exit).
///
/// Why not `Process`: on Linux, `Process.run()` reads `/proc/self/fd` with a `memcpy` of a whole 256-byte
/// `d_name` for every entry, past the end of glibc's directory buffer, and crashes when that buffer ends at an
/// unmapped page (swift-corelibs-foundation PR 5472; it crashed `make test` once in a run of hundreds of
/// spawns). This one never reads `/proc`: the child closes every descriptor from 3 up as it starts
/// (`posix_spawn_file_actions_addclosefrom_np`), so it also inherits no other test's pipes or sockets.
package final class ChildProcess: @unchecked Sendable {
    // Safe: the configuration is set before `run()` on the creating thread; what changes later (the exit, once
    // reaped) is behind `state`'s lock.

    /// The program to run.
    package var executableURL: URL?
    /// Its arguments, without the program's name.
    package var arguments: [String] = []
    /// Its whole environment; `nil` inherits this process's.
    package var environment: [String: String]?
    /// The directory it starts in; `nil` is this process's.
    package var currentDirectoryURL: URL?
    /// A `Pipe` or a `FileHandle` for the child's standard input; `nil` inherits this process's.
    package var standardInput: Any?
    /// A `Pipe` or a `FileHandle` for the child's standard output; `nil` inherits this process's.
    package var standardOutput: Any?
    /// A `Pipe` or a `FileHandle` for the child's standard error; `nil` inherits this process's.
    package var standardError: Any?

    private let state = Locked(State())

    private struct State {
        var pid: pid_t = 0
        var exit: ProcessExit?
    }

    package init() {}

    /// The child's process id, 0 before `run()`.
    package var processIdentifier: Int32 { state.withLock { $0.pid } }

    /// Starts the child. Throws a `POSIXError` naming what failed (`ENOENT` for a missing program).
    package func run() throws {
        guard let executableURL else { throw POSIXError(.ENOENT) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        try Self.check(Self.resetSignals(&attributes))
        for (stream, target) in [(standardInput, 0), (standardOutput, 1), (standardError, 2)] {
            if let handle = stream as? FileHandle, handle.fileDescriptor < 0 {
                // FileHandle.nullDevice has no descriptor on Linux (-1, which dup2 refuses: EBADF): /dev/null.
                try Self.check(posix_spawn_file_actions_addopen(&actions, Int32(target), "/dev/null", O_RDWR, 0))
                continue
            }
            guard let fd = Self.descriptor(stream, childReads: target == 0) else { continue }
            try Self.check(posix_spawn_file_actions_adddup2(&actions, fd, Int32(target)))
        }
        if let directory = currentDirectoryURL {
            try Self.check(SpawnExtensions.addChangeDirectory(&actions, directory.path))
        }
        try Self.check(SpawnExtensions.addCloseFrom(&actions, 3))

        let argv = ([executableURL.path] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let envp = environment.map { $0.map { strdup("\($0.key)=\($0.value)") } + [nil] }
        defer { envp?.forEach { free($0) } }
        var pid: pid_t = 0
        let path = executableURL.path
        let status =
            envp.map { posix_spawn(&pid, path, &actions, &attributes, argv, $0) }
            ?? posix_spawn(&pid, path, &actions, &attributes, argv, environ)
        try Self.check(status)
        state.withLock { $0.pid = pid }
        // The child has its ends of the pipes now; keeping ours open would hide its end of file from the reader.
        (standardInput as? Pipe).map { try? $0.fileHandleForReading.close() }
        (standardOutput as? Pipe).map { try? $0.fileHandleForWriting.close() }
        (standardError as? Pipe).map { try? $0.fileHandleForWriting.close() }
    }

    /// Whether the child has been started and has not ended (an ended child is reaped here, its exit kept).
    package var isRunning: Bool {
        state.withLock { state in
            guard state.pid > 0, state.exit == nil else { return false }
            var status: Int32 = 0
            let reaped = waitpid(state.pid, &status, WNOHANG)
            if reaped == state.pid { state.exit = ProcessExit(waitStatus: status) }
            return reaped == 0
        }
    }

    /// Sends SIGINT.
    package func interrupt() { send(SIGINT) }
    /// Sends SIGTERM.
    package func terminate() { send(SIGTERM) }

    /// Sends `signal` to the child if it has not been reaped (so never to a recycled process id).
    package func send(_ signal: Int32) {
        state.withLock { state in
            if state.pid > 0, state.exit == nil { _ = kill(state.pid, signal) }
        }
    }

    /// Blocks until the child ends, reaps it, and says how it ended. Any number of calls return the same.
    @discardableResult
    package func waitForExit() -> ProcessExit {
        let pid: pid_t
        switch state.withLock({ ($0.pid, $0.exit) }) {
        case (_, let exit?): return exit
        case (let started, nil) where started > 0: pid = started
        default: return ProcessExit(status: -1, signaled: false)
        }
        var status: Int32 = 0
        var reaped = waitpid(pid, &status, 0)
        while reaped < 0 && errno == EINTR { reaped = waitpid(pid, &status, 0) }
        return state.withLock { state in
            // Another caller may have reaped it meanwhile (ECHILD here): its record stands.
            if state.exit == nil {
                state.exit = reaped == pid ? ProcessExit(waitStatus: status) : ProcessExit(status: -1, signaled: false)
            }
            return state.exit ?? ProcessExit(status: -1, signaled: false)
        }
    }

    private static func descriptor(_ stream: Any?, childReads: Bool) -> Int32? {
        switch stream {
        case let pipe as Pipe:
            return childReads ? pipe.fileHandleForReading.fileDescriptor : pipe.fileHandleForWriting.fileDescriptor
        case let handle as FileHandle: return handle.fileDescriptor
        default: return nil
        }
    }

    /// The child starts with every signal at its default and none blocked, whatever this process ignores or masks
    /// (an ignored SIGINT would otherwise survive `exec`).
    private static func resetSignals(_ attributes: inout posix_spawnattr_t) -> Int32 {
        var all = sigset_t()
        sigfillset(&all)
        sigdelset(&all, SIGKILL)
        sigdelset(&all, SIGSTOP)
        var none = sigset_t()
        sigemptyset(&none)
        let flags = Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK)
        return posix_spawnattr_setsigdefault(&attributes, &all) | posix_spawnattr_setsigmask(&attributes, &none)
            | posix_spawnattr_setflags(&attributes, flags)
    }

    private static func check(_ status: Int32) throws {
        guard status == 0 else { throw POSIXError(POSIXErrorCode(rawValue: status) ?? .EINVAL) }
    }
}
