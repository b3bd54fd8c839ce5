import Foundation

/// Where a command writes and reads. Output is written as it is produced, never buffered to the end.
public struct Console: Sendable {
    private let writeOut: @Sendable (String) -> Void
    private let writeErr: @Sendable (String) -> Void
    private let readIn: @Sendable () -> Data

    public init(
        out: @escaping @Sendable (String) -> Void, err: @escaping @Sendable (String) -> Void,
        input: @escaping @Sendable () -> Data = { Data() }
    ) {
        writeOut = out
        writeErr = err
        readIn = input
    }

    /// The process's standard output, error and input.
    public static let standard = Console(
        out: { FileHandle.standardOutput.write(Data($0.utf8)) },
        err: { FileHandle.standardError.write(Data($0.utf8)) },
        input: { FileHandle.standardInput.readDataToEndOfFile() })

    /// Writes a line to standard output.
    public func print(_ line: String = "") { writeOut(line + "\n") }
    /// Writes text to standard output without adding a newline.
    public func write(_ text: String) { writeOut(text) }
    /// Writes a line to standard error.
    public func printError(_ line: String) { writeErr(line + "\n") }

    /// The bytes of a file, or of standard input for `-`.
    public func read(_ path: String) throws(CommandFailure) -> [UInt8] {
        if path == "-" { return Array(readIn()) }
        do {
            return Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        } catch {
            let reason = (error as NSError).localizedFailureReason ?? "it does not exist or is not readable"
            throw CommandFailure("cannot read '\(path)': \(reason)")
        }
    }

    /// The name to show for an input path in diagnostics.
    public static func displayName(_ path: String) -> String { path == "-" ? "<stdin>" : path }
}
