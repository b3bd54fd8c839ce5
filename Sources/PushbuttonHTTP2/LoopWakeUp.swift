#if canImport(COpenSSL)
    import Foundation

    /// A non-blocking pipe that wakes an event loop from `poll`: other threads call ``signal()``, the loop
    /// polls ``descriptor`` and calls ``drain()``. Used by the sender's and the mock's loops.
    package final class LoopWakeUp: Sendable {
        /// The end the loop polls for reading.
        package let descriptor: Int32
        private let writeEnd: Int32

        package init() throws(HTTP2Error) {
            var ends: [Int32] = [0, 0]
            guard pipe(&ends) == 0 else {
                throw HTTP2Error("cannot create a pipe: \(String(cString: strerror(errno)))")
            }
            for end in ends { _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK) }
            descriptor = ends[0]
            writeEnd = ends[1]
        }

        deinit {
            close(descriptor)
            close(writeEnd)
        }

        package func signal() {
            var byte: UInt8 = 1
            _ = write(writeEnd, &byte, 1)
        }

        package func drain() {
            var bytes = [UInt8](repeating: 0, count: 64)
            while read(descriptor, &bytes, bytes.count) > 0 {}
        }
    }
#endif
