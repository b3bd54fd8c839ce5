import Foundation
import Pushbutton
import PushbuttonTestSupport

/// Runs an independent client (h2load, nghttp, aioapns) to completion, off Swift's cooperative threads.
enum ExternalTool {
    struct Output {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static func run(_ executable: String, _ arguments: [String]) async throws -> Output {
        // Awaited on a thread of its own: a Dispatch worker blocked for the tool's whole run would starve the
        // retry timers of the async tests running beside it (Dispatch's pool is as wide as the cores).
        let result = try await Subprocess.run(
            URL(fileURLWithPath: executable.hasPrefix("/") ? executable : "/usr/bin/" + executable), arguments,
            in: packageRoot)
        return Output(status: result.status, stdout: result.stdout, stderr: result.stderr)
    }
}
