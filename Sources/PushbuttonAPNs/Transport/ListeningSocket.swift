import Foundation

/// A listening TCP socket: non-blocking, bound to an IPv4 address, reporting the port the kernel picked
/// (for port 0). The mock APNs and the demo's backend listen with it.
package enum ListeningSocket {
    package static func bind(host: String, port: Int) throws(APNsError) -> (socket: Int32, port: Int) {
        guard let port16 = UInt16(exactly: port) else {
            throw APNsError(.transport, "cannot listen on port \(port): a port is from 0 to 65535")
        }
        #if os(Linux)
            let listener = socket(
                AF_INET, Int32(SOCK_STREAM.rawValue | SOCK_NONBLOCK.rawValue | SOCK_CLOEXEC.rawValue), 0)
        #else
            // SOCK_NONBLOCK and SOCK_CLOEXEC are Linux-only: Darwin sets the same flags with fcntl.
            let listener = socket(AF_INET, SOCK_STREAM, 0)
            if listener >= 0 {
                _ = fcntl(listener, F_SETFL, fcntl(listener, F_GETFL) | O_NONBLOCK)
                _ = fcntl(listener, F_SETFD, FD_CLOEXEC)
            }
        #endif
        guard listener >= 0 else {
            throw APNsError(.transport, "cannot create a socket: \(String(cString: strerror(errno)))")
        }
        var one: Int32 = 1
        setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(port16.bigEndian)
        guard inet_pton(AF_INET, host, &address.sin_addr) == 1 else {
            close(listener)
            throw APNsError(
                .transport, "'\(host)' is not an IPv4 address (the mock binds 127.0.0.1 unless told otherwise)")
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Foundation.bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, listen(listener, 128) == 0 else {
            let reason = String(cString: strerror(errno))
            close(listener)
            throw APNsError(.transport, "cannot listen on \(host):\(port): \(reason)")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { _ = getsockname(listener, $0, &length) }
        }
        return (listener, Int(UInt16(bigEndian: address.sin_port)))
    }
}
