import Foundation
import Pushbutton
import PushbuttonSupport

/// Runs the `curl` command line (HTTP/1.1 and HTTP/2 prior knowledge) for tests of the server.
enum Curl {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Runs curl to its end on a Dispatch thread (waiting for a process must not hold a cooperative thread).
    static func run(_ arguments: [String]) async throws -> String {
        try await Blocking.run { try runNow(arguments) }
    }

    private static func runNow(_ arguments: [String]) throws -> String {
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        process.arguments = ["--max-time", "20"] + arguments
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = DescriptorReader.readToEnd(output.fileHandleForReading)
        let exit = ProcessExit.wait(for: process)
        guard exit.status == 0 else {
            throw Failure(description: "curl \(arguments) exited with \(exit.status)")
        }
        return String(decoding: data, as: UTF8.self)
    }
}
