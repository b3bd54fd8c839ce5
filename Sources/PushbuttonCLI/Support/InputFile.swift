import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An input file opened once with `open(2)`: a regular file, a FIFO, `/dev/stdin` or a process
/// substitution (`<(…)`, a `/dev/fd/N` that can be read only once). Nothing checks it beforehand with
/// `access` or `stat` sizes, which FIFOs do not have.
struct InputFile: ~Copyable {
    let path: String
    let descriptor: Int32

    /// Opens `path` for reading, or fails with a one-line error naming it.
    init(_ path: String) throws(CommandFailure) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw CommandFailure("cannot read '\(path)': \(String(cString: strerror(errno)))")
        }
        var info = stat()
        if fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFDIR {
            close(descriptor)
            throw CommandFailure("cannot read '\(path)': it is a directory")
        }
        self.path = path
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }

    /// The whole file.
    static func readAll(_ path: String) throws(CommandFailure) -> [UInt8] {
        let file = try InputFile(path)
        do { return try StandardStream.readAll(file.descriptor) } catch {
            throw CommandFailure("cannot read '\(path)': \(error.message)")
        }
    }
}
