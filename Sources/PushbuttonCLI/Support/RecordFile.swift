import Foundation
import PushbuttonSupport

/// `mock-apns --record FILE`: a private (0600) file the accepted requests are appended to, a line at a
/// time with one `write` each, so a reader (a benchmark, a test) sees every line as soon as it is recorded.
final class RecordFile: Sendable {
    private let descriptor: Int32
    /// Set once a write failed (a full disk): the mock keeps serving and stops recording.
    private let failed = Locked(false)

    init(path: String) throws(CommandFailure) {
        descriptor = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw CommandFailure(
                "--record: cannot create '\(path)': \(String(cString: strerror(errno))); give a writable path")
        }
        fchmod(descriptor, 0o600)  // an existing file keeps its mode on open; make it private too
    }

    deinit { close(descriptor) }

    /// Appends `line` and a newline; after a failed write, nothing more.
    func append(_ line: String) {
        failed.withLock { failed in
            guard !failed else { return }
            var bytes = Array(line.utf8)
            bytes.append(UInt8(ascii: "\n"))
            let written = bytes.withUnsafeBytes { Foundation.write(descriptor, $0.baseAddress, $0.count) }
            if written != bytes.count {
                failed = true
                FileHandle.standardError.write(
                    Data("mock-apns: --record stopped: \(String(cString: strerror(errno)))\n".utf8))
            }
        }
    }
}
