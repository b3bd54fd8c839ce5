import Foundation
import Pushbutton

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads a file (a regular file, a FIFO, a process substitution) or standard input line by line, in
/// bounded memory, with ``LineSplitter``.
enum LineReader {
    /// Calls `body` with each line as bytes, without its line break. `path` `nil` reads standard input.
    /// A read error ends the input with a ``CommandFailure``; the lines read before it were passed on.
    /// `afterChunk` runs once the lines of each read were passed on, before the next read (which may wait).
    static func forEachLine(
        path: String?, afterChunk: () -> Void = {}, _ body: (LineSplitter.Line) -> Void
    ) throws(CommandFailure) {
        if let path {
            let file = try InputFile(path)
            try forEachLine(descriptor: file.descriptor, name: "'\(path)'", afterChunk: afterChunk, body)
        } else {
            try forEachLine(descriptor: STDIN_FILENO, name: "standard input", afterChunk: afterChunk, body)
        }
    }

    private static func forEachLine(
        descriptor: Int32, name: String, afterChunk: () -> Void, _ body: (LineSplitter.Line) -> Void
    ) throws(CommandFailure) {
        var splitter = LineSplitter()
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = chunk.withUnsafeMutableBytes { Foundation.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw CommandFailure("cannot read \(name): \(String(cString: strerror(errno)))")
            }
            if count == 0 { break }
            splitter.feed(chunk[..<count], body)
            afterChunk()
        }
        splitter.finish(body)
    }
}
