import Foundation
import Pushbutton
import PushbuttonSupport

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
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent(
            "pushbutton-tool-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let out = scratch.appendingPathComponent("out")
        let err = scratch.appendingPathComponent("err")
        _ = FileManager.default.createFile(atPath: out.path, contents: nil)
        _ = FileManager.default.createFile(atPath: err.path, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable.hasPrefix("/") ? executable : "/usr/bin/" + executable)
        process.arguments = arguments
        process.currentDirectoryURL = packageRoot
        process.standardOutput = try FileHandle(forWritingTo: out)
        process.standardError = try FileHandle(forWritingTo: err)
        try process.run()
        // Waited for on a thread of its own: a Dispatch worker blocked for the tool's whole run would starve
        // the retry timers of the async tests running beside it (Dispatch's pool is as wide as the cores).
        let exit = await withCheckedContinuation { (continuation: CheckedContinuation<ProcessExit, Never>) in
            Thread { continuation.resume(returning: ProcessExit.wait(for: process)) }.start()
        }
        return Output(
            status: exit.status, stdout: String(decoding: try Data(contentsOf: out), as: UTF8.self),
            stderr: String(decoding: try Data(contentsOf: err), as: UTF8.self))
    }
}
