import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Standard output, error and input through `write(2)` and `read(2)`, which report errors instead of
/// trapping the way `FileHandle.write` does.
enum StandardStream {
    /// A write that did not complete: `errno` from `write(2)`.
    struct WriteFailure: Error, Sendable {
        var code: Int32
        var isClosedPipe: Bool { code == EPIPE }
        var message: String { String(cString: strerror(code)) }
    }

    /// Writes every byte of `text` to `descriptor`, retrying partial writes and interruptions.
    static func write(_ text: String, to descriptor: Int32) throws(WriteFailure) {
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { rest in
                Foundation.write(descriptor, rest.baseAddress, rest.count)
            }
            if written < 0 {
                if errno == EINTR { continue }
                if errno == EAGAIN { pollWritable(descriptor); continue }
                throw WriteFailure(code: errno)
            }
            offset += written
        }
        bytes.removeAll()
    }

    /// Ends the process the way Unix tools end when their output goes away: quietly with status 141
    /// (128 + SIGPIPE) for a closed pipe, or with one line on standard error and status 1.
    static func exit(after failure: WriteFailure, writing stream: String) -> Never {
        if !failure.isClosedPipe {
            try? write("pushbutton: error: cannot write to \(stream): \(failure.message)\n", to: STDERR_FILENO)
        }
        // `_exit`, not `exit`: other threads may hold locks that atexit handlers would wait for.
        _exit(failure.isClosedPipe ? 141 : 1)
    }

    /// Everything readable from `descriptor` until end of file.
    static func readAll(_ descriptor: Int32) throws(WriteFailure) -> [UInt8] {
        var result: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = chunk.withUnsafeMutableBytes { Foundation.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw WriteFailure(code: errno)
            }
            if count == 0 { return result }
            result.append(contentsOf: chunk[..<count])
        }
    }

    private static func pollWritable(_ descriptor: Int32) {
        var entry = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
        _ = poll(&entry, 1, 1000)
    }
}
