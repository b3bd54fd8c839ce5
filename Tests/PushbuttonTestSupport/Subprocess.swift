import Foundation
import PushbuttonSupport

/// Runs a program to completion without blocking the cooperative pool: its exit is awaited on a thread of its
/// own (``OffPool``) and reaped with `ProcessExit` (never `waitUntilExit()`, which can miss an exit on Linux).
/// Output goes through files, so a full pipe can never stall the program.
package enum Subprocess {
    /// How the program ended and what it printed.
    package struct Result: Sendable {
        /// The exit code, or the number of the signal that ended it.
        package var status: Int32
        /// Whether a signal ended it.
        package var signaled: Bool
        package var stdout: String
        package var stderr: String
    }

    /// Runs `executable` with `arguments`, feeding it `stdin`, in `directory`.
    package static func run(
        _ executable: URL, _ arguments: [String], stdin: String = "", in directory: URL? = nil,
        environment: [String: String]? = nil
    ) async throws -> Result {
        let scratch = try TemporaryDirectory(prefix: "pushbutton-subprocess")
        defer { scratch.remove() }
        let out = scratch.url.appendingPathComponent("out")
        let err = scratch.url.appendingPathComponent("err")
        let input = scratch.url.appendingPathComponent("in")
        _ = FileManager.default.createFile(atPath: out.path, contents: nil)
        _ = FileManager.default.createFile(atPath: err.path, contents: nil)
        _ = FileManager.default.createFile(atPath: input.path, contents: Data(stdin.utf8))
        let process = ChildProcess()
        process.executableURL = executable
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        if let environment { process.environment = environment }
        process.standardOutput = try FileHandle(forWritingTo: out)
        process.standardError = try FileHandle(forWritingTo: err)
        process.standardInput = try FileHandle(forReadingFrom: input)
        try process.run()
        let exit = try await OffPool.run { ProcessExit.wait(for: process) }
        return Result(
            status: exit.status, signaled: exit.signaled,
            stdout: String(decoding: try Data(contentsOf: out), as: UTF8.self),
            stderr: String(decoding: try Data(contentsOf: err), as: UTF8.self))
    }
}
