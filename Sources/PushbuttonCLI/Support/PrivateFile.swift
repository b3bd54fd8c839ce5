import Foundation

/// Files holding keys or user data: created with mode 0600, whatever the umask.
enum PrivateFile {
    static func write(_ text: String, to path: String) throws(CommandFailure) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw CommandFailure("cannot create '\(path)': \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        fchmod(descriptor, 0o600)  // an existing file keeps its mode on open; make it private too
        let bytes = Array(text.utf8)
        guard Foundation.write(descriptor, bytes, bytes.count) == bytes.count else {
            throw CommandFailure("cannot write '\(path)': \(String(cString: strerror(errno)))")
        }
    }
}
