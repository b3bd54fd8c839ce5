import Foundation
import PushbuttonSupport

#if canImport(Glibc)
    import Glibc
#endif

/// A server process for one test, on 127.0.0.1: started, its port read from the first line it prints (a bare
/// number, or text holding `127.0.0.1:PORT`), signalled and reaped by the test.
///
/// `@unchecked Sendable`: every stored property is set in `init` and never changed; after that the process is
/// only signalled and reaped, by one caller at a time.
package final class LocalServerProcess: @unchecked Sendable {
    package struct StartFailure: Error, CustomStringConvertible {
        package var description: String
    }

    package let process = ChildProcess()
    package let port: Int
    /// The line the server announced itself with.
    package let firstLine: String
    private let output = Pipe()

    /// Starts `executable`; `standardError` receives its stderr (the test's own by default).
    package init(_ executable: URL, _ arguments: [String], standardError: FileHandle? = nil) throws {
        process.executableURL = executable
        process.arguments = arguments
        process.standardOutput = output
        if let standardError { process.standardError = standardError }
        process.standardInput = FileHandle.nullDevice
        try process.run()
        var line = [UInt8]()
        let handle = output.fileHandleForReading
        while !line.contains(0x0A) {
            let chunk = DescriptorReader.readAvailable(handle)
            if chunk.isEmpty { break }
            line += chunk
        }
        firstLine = String(decoding: line.prefix { $0 != 0x0A }, as: UTF8.self)
        guard let port = Self.port(in: firstLine) else {
            kill(process.processIdentifier, SIGKILL)
            ProcessExit.wait(for: process)
            throw StartFailure(description: "\(executable.lastPathComponent) did not announce a port: '\(firstLine)'")
        }
        self.port = port
    }

    /// The port in an announcement line: the whole line as a number, or the digits after `127.0.0.1:`.
    package static func port(in line: String) -> Int? {
        if let number = Int(line.trimmingCharacters(in: .whitespaces)) { return number }
        guard let range = line.range(of: "127.0.0.1:") else { return nil }
        return Int(line[range.upperBound...].prefix { $0.isNumber })
    }

    /// Sends `signal` and waits for the process to end (on the calling thread: call it off the pool).
    @discardableResult
    package func stop(signal: Int32 = SIGTERM) -> ProcessExit {
        kill(process.processIdentifier, signal)
        return ProcessExit.wait(for: process)
    }
}
