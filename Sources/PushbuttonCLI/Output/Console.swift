import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where a command writes and reads. Output is written as it is produced, never buffered to the end.
///
/// Output that cannot be written never traps: on the standard console, a closed pipe ends the process
/// quietly with status 141 (as `pushbutton send … | head -1` should), and any other write error prints
/// one line and exits 1. A command that must outlive its output (the mock APNs) uses ``printIfPossible(_:)``.
package struct Console: Sendable {
    private let writeOut: @Sendable (String) throws(StandardStream.WriteFailure) -> Void
    private let writeErr: @Sendable (String) -> Void
    private let readIn: @Sendable () throws(StandardStream.WriteFailure) -> [UInt8]

    package init(
        out: @escaping @Sendable (String) -> Void, err: @escaping @Sendable (String) -> Void,
        input: @escaping @Sendable () -> Data = { Data() }
    ) {
        writeOut = { text throws(StandardStream.WriteFailure) in out(text) }
        writeErr = err
        readIn = { () throws(StandardStream.WriteFailure) in Array(input()) }
    }

    private init(
        writeOut: @escaping @Sendable (String) throws(StandardStream.WriteFailure) -> Void,
        writeErr: @escaping @Sendable (String) -> Void,
        readIn: @escaping @Sendable () throws(StandardStream.WriteFailure) -> [UInt8]
    ) {
        self.writeOut = writeOut
        self.writeErr = writeErr
        self.readIn = readIn
    }

    /// The process's standard output, error and input.
    package static let standard = Console(
        writeOut: { text throws(StandardStream.WriteFailure) in try StandardStream.write(text, to: STDOUT_FILENO) },
        writeErr: { text in try? StandardStream.write(text, to: STDERR_FILENO) },  // nowhere left to report
        readIn: { () throws(StandardStream.WriteFailure) in try StandardStream.readAll(STDIN_FILENO) })

    /// Writes a line to standard output.
    package func print(_ line: String = "") { write(line + "\n") }
    /// Writes text to standard output without adding a newline.
    package func write(_ text: String) {
        do { try writeOut(text) } catch { StandardStream.exit(after: error, writing: "standard output") }
    }
    /// Writes a line to standard output and returns whether it was written, instead of ending the process
    /// when standard output has gone away.
    package func printIfPossible(_ line: String) -> Bool {
        do {
            try writeOut(line + "\n")
            return true
        } catch {
            return false
        }
    }
    /// Writes a line to standard error.
    package func printError(_ line: String) { writeErr(line + "\n") }

    /// The bytes of a file (a regular file, a FIFO or a process substitution such as `<(…)`), or of
    /// standard input for `-`.
    package func read(_ path: String) throws(CommandFailure) -> [UInt8] {
        if path == "-" {
            do { return try readIn() } catch {
                throw CommandFailure("cannot read standard input: \(error.message)")
            }
        }
        return try InputFile.readAll(path)
    }

    /// The name to show for an input path in diagnostics.
    package static func displayName(_ path: String) -> String { path == "-" ? "<stdin>" : path }
}
