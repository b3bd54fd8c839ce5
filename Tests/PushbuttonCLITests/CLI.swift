import Foundation
import Pushbutton
import PushbuttonSupport
import PushbuttonTestSupport

/// Runs the built `pushbutton` binary, as a user would, and captures what it printed.
enum CLI {
    struct Result: Sendable {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// The directory SwiftPM built the products in (where the test bundle and `pushbutton` live).
    static let productsDirectory: URL = {
        let candidates =
            [Bundle.main.executableURL, URL(fileURLWithPath: CommandLine.arguments[0])]
            .compactMap { $0?.deletingLastPathComponent() }
            + Bundle.allBundles.map { $0.bundleURL.deletingLastPathComponent() }
        for directory in candidates
        where FileManager.default.isExecutableFile(atPath: directory.appendingPathComponent("pushbutton").path) {
            return directory
        }
        fatalError("the pushbutton binary was not found next to the tests in \(candidates); run 'swift build' first")
    }()

    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static func example(_ name: String) -> String {
        packageRoot.appendingPathComponent("Examples/\(name)").path
    }

    /// Runs `pushbutton` with `arguments`, feeding `stdin`, in the package root, awaiting its exit on a thread of
    /// its own (``Subprocess``), so the test holds none of the cooperative pool's two threads meanwhile.
    static func run(_ arguments: [String], stdin: String = "") async throws -> Result {
        try await run(productsDirectory.appendingPathComponent("pushbutton"), arguments, stdin: stdin)
    }

    /// Runs any program to completion without blocking the cooperative pool.
    static func run(
        _ executable: URL, _ arguments: [String], stdin: String = "", in directory: URL = packageRoot,
        environment: [String: String]? = nil
    ) async throws -> Result {
        let result = try await Subprocess.run(
            executable, arguments, stdin: stdin, in: directory, environment: environment)
        return Result(status: result.status, stdout: result.stdout, stderr: result.stderr)
    }

    /// Runs `pushbutton` to completion on the calling thread: only for work already off the pool (inside
    /// ``OffPool/run(_:)``).
    static func runBlocking(_ arguments: [String], stdin: String = "") throws -> Result {
        try runBlocking(productsDirectory.appendingPathComponent("pushbutton"), arguments, stdin: stdin)
    }

    /// Runs any program to completion on the calling thread (output goes through files, so a full pipe can
    /// never stall it): only for work already off the pool.
    static func runBlocking(
        _ executable: URL, _ arguments: [String], stdin: String = "", in directory: URL = packageRoot,
        environment: [String: String]? = nil
    ) throws -> Result {
        let process = ChildProcess()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = directory
        if let environment { process.environment = environment }
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent(
            "pushbutton-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let outURL = scratch.appendingPathComponent("out")
        let errURL = scratch.appendingPathComponent("err")
        let inURL = scratch.appendingPathComponent("in")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: inURL.path, contents: Data(stdin.utf8))
        process.standardOutput = try FileHandle(forWritingTo: outURL)
        process.standardError = try FileHandle(forWritingTo: errURL)
        process.standardInput = try FileHandle(forReadingFrom: inURL)
        try process.run()
        let status = waitForExit(process).status
        return Result(
            status: status,
            stdout: String(decoding: try Data(contentsOf: outURL), as: UTF8.self),
            stderr: String(decoding: try Data(contentsOf: errURL), as: UTF8.self))
    }

    /// How a process ended (see `ProcessExit`, which says why tests do not use `waitUntilExit()`).
    typealias Exit = ProcessExit

    /// Waits for `process` and reaps it, on the calling thread: for a process that was just killed, or for work
    /// already off the pool.
    @discardableResult
    static func waitForExit(_ process: ChildProcess) -> Exit { ProcessExit.wait(for: process) }

    /// Waits for `process` and reaps it on a thread of its own, holding none of the cooperative pool's threads
    /// while the process runs.
    @discardableResult
    static func exit(of process: ChildProcess) async throws -> Exit {
        try await OffPool.run { ProcessExit.wait(for: process) }
    }

    /// A fresh temporary directory, removed by the caller.
    static func temporaryDirectory() throws -> URL {
        try TemporaryDirectory(prefix: "pushbutton-test").url
    }
}
