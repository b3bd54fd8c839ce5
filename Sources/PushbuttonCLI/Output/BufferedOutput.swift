/// Result lines collected and written in blocks of about 64 KiB rather than one system call per line,
/// and at least every quarter second, so a pipeline reading the results still sees them as they come.
struct BufferedOutput {
    let console: Console
    private var buffer: [UInt8] = []
    private var lastFlush = ContinuousClock.now

    init(console: Console) { self.console = console }

    mutating func line(_ bytes: [UInt8]) {
        buffer += bytes
        buffer.append(0x0A)
        if buffer.count >= 64 * 1024 || ContinuousClock.now - lastFlush > .milliseconds(250) { flush() }
    }

    mutating func flush() {
        lastFlush = .now
        guard !buffer.isEmpty else { return }
        console.write(String(decoding: buffer, as: UTF8.self))
        buffer.removeAll(keepingCapacity: true)
    }
}
