import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads a pipe or file by its descriptor, retrying a read a signal interrupted.
///
/// Why not FileHandle's own whole-pipe and available-data reads: on Linux they trap when `read` fails with
/// `EINTR`, which a child's SIGCHLD can cause while a test waits for its output (seen in the gateway tests under
/// load). A read that fails otherwise ends the data here, as end of file would.
package enum DescriptorReader {
    /// Everything until end of file.
    package static func readToEnd(_ handle: FileHandle) -> Data {
        var data = Data()
        while let chunk = readChunk(handle.fileDescriptor) { data.append(contentsOf: chunk) }
        return data
    }

    /// What one read returns (at least a byte, blocking until one comes), or empty data at end of file.
    package static func readAvailable(_ handle: FileHandle) -> Data {
        readChunk(handle.fileDescriptor).map { Data($0) } ?? Data()
    }

    private static func readChunk(_ fd: Int32) -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count > 0 { return Array(buffer[..<count]) }
            if count < 0 && errno == EINTR { continue }
            return nil
        }
    }
}
