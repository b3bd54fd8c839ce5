import Foundation
import PushbuttonSupport
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A `pushbutton serve` process started from the built binary; its port is read from its first line.
///
/// `@unchecked Sendable`: every stored property is set in `init` and never changed; after that only the
/// process is signalled and waited for, one caller at a time.
final class ServeProcess: @unchecked Sendable {
    static let binary: URL = {
        let candidates =
            [Bundle.main.executableURL, URL(fileURLWithPath: CommandLine.arguments[0])]
            .compactMap { $0?.deletingLastPathComponent() }
            + Bundle.allBundles.map { $0.bundleURL.deletingLastPathComponent() }
        for directory in candidates
        where FileManager.default.isExecutableFile(atPath: directory.appendingPathComponent("pushbutton").path) {
            return directory.appendingPathComponent("pushbutton")
        }
        fatalError("the pushbutton binary was not found next to the tests in \(candidates); run 'swift build' first")
    }()

    let process = ChildProcess()
    let port: Int
    private let output = Pipe()
    private let errors: URL

    struct Failure: Error, CustomStringConvertible { var description: String }

    init(config: String, port: Int = 0, logDirectory: String) throws {
        errors = URL(fileURLWithPath: logDirectory).appendingPathComponent("serve-\(UUID().uuidString).err")
        _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
        process.executableURL = Self.binary
        process.arguments = ["serve", "--config", config, "--port", String(port)]
        process.standardOutput = output
        process.standardError = try FileHandle(forWritingTo: errors)
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // A server that neither prints its first line nor exits is killed after `startTimeout`, so the read
        // below ends (EOF) instead of waiting forever.
        let started = Atomic(false)
        let pid = process.processIdentifier
        DispatchQueue.global().asyncAfter(deadline: .now() + Self.startTimeout) {
            if !started.load(ordering: .acquiring) { kill(pid, SIGKILL) }
        }
        var line = [UInt8]()
        let handle = output.fileHandleForReading
        while !line.contains(0x0A) {
            let chunk = DescriptorReader.readAvailable(handle)
            if chunk.isEmpty { break }
            line += chunk
        }
        started.store(true, ordering: .releasing)
        let text = String(decoding: line, as: UTF8.self)
        guard let range = text.range(of: "127.0.0.1:"),
            let number = Int(text[range.upperBound...].prefix { $0.isNumber })
        else {
            // The first line was not the address: a server still running is stopped before it is waited for.
            if process.isRunning { kill(pid, SIGKILL) }
            let exit = ProcessExit.wait(for: process)
            let stderr = (try? String(contentsOf: errors, encoding: .utf8)) ?? ""
            throw Failure(
                description:
                    "pushbutton serve did not start (exit \(exit.status)\(exit.signaled ? ", by signal" : "")): \(text) \(stderr)"
            )
        }
        self.port = number
    }

    static let startTimeout = 60.0

    var standardError: String { (try? String(contentsOf: errors, encoding: .utf8)) ?? "" }

    func kill9() {
        kill(process.processIdentifier, SIGKILL)
        ProcessExit.wait(for: process)
    }

    func terminate() {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGTERM)
        ProcessExit.wait(for: process)
    }
}
