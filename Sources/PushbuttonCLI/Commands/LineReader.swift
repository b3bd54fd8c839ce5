import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Reads a file (or standard input) line by line with `getline`, without loading it whole.
enum LineReader {
    /// Calls `body` with each line, without its line break. `path` `nil` reads standard input.
    static func forEachLine(path: String?, _ body: (String) -> Void) {
        guard let file = path.map({ fopen($0, "r") }) ?? fdopen(dup(STDIN_FILENO), "r") else { return }
        defer { fclose(file) }
        var buffer: UnsafeMutablePointer<CChar>?
        var capacity = 0
        defer { free(buffer) }
        while true {
            let length = getline(&buffer, &capacity, file)
            guard length >= 0, let buffer else { return }
            var end = length
            while end > 0, buffer[end - 1] == 0x0A || buffer[end - 1] == 0x0D { end -= 1 }
            body(
                buffer.withMemoryRebound(to: UInt8.self, capacity: end) {
                    String(decoding: UnsafeBufferPointer(start: $0, count: end), as: UTF8.self)
                })
        }
    }
}
