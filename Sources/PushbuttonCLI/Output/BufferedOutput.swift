import Foundation

/// Result lines collected and written in blocks of about 64 KiB rather than one system call per line,
/// and at least every quarter second, so a pipeline reading the results still sees them as they come.
struct BufferedOutput {
    let console: Console
    private var buffer: [UInt8] = []
    private var lastFlush = Self.coarseMilliseconds()

    init(console: Console) { self.console = console }

    mutating func line(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { line($0) }
    }

    mutating func line(_ bytes: UnsafeBufferPointer<UInt8>) {
        buffer.append(contentsOf: bytes)
        buffer.append(0x0A)
        if buffer.count >= 64 * 1024 || Self.coarseMilliseconds() - lastFlush > 250 { flush() }
    }

    mutating func flush() {
        lastFlush = Self.coarseMilliseconds()
        guard !buffer.isEmpty else { return }
        console.write(String(decoding: buffer, as: UTF8.self))
        buffer.removeAll(keepingCapacity: true)
    }

    /// The monotonic clock to a few milliseconds, read once per line: the coarse clock costs a fraction of the
    /// precise one, which a bulk send would read for every result.
    private static func coarseMilliseconds() -> Int {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC_COARSE, &now)
        return now.tv_sec * 1000 + now.tv_nsec / 1_000_000
    }
}
