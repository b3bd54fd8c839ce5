import Foundation

/// Runs a shell command with a pseudo-terminal as its standard error (and input), as when a user runs it in
/// a terminal, so what is drawn only for terminals (progress lines) can be checked. Standard output goes
/// where the command sends it.
enum Terminal {
    /// `command` run by `/bin/sh` under a pseudo-terminal (Python's `pty`); `stdout` is what reached it.
    static func run(_ command: String, in directory: URL = CLI.packageRoot) async throws -> CLI.Result {
        let script = """
            import os, pty, sys
            status = pty.spawn(["/bin/sh", "-c", sys.argv[1]])
            sys.exit(os.waitstatus_to_exitcode(status))
            """
        var environment = ProcessInfo.processInfo.environment
        environment["PATH"] = CLI.productsDirectory.path + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        return try await CLI.run(
            URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", script, command], in: directory,
            environment: environment)
    }

    /// The successive states of a line redrawn with carriage returns, without the erase-to-end sequence.
    static func redraws(_ output: String) -> [String] {
        output.replacingOccurrences(of: "\u{1B}[K", with: "").replacingOccurrences(of: "\r\n", with: "\n")
            .split(separator: "\r", omittingEmptySubsequences: true).map { String($0) }
    }
}
