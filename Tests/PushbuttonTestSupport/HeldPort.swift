import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A TCP port on 127.0.0.1 bound but never listened on: a connection to it is refused, and no other socket of
/// the machine (another test's server asking for port 0, say) can take it while it is held. A test that needs
/// "nothing listens there" holds the port instead of trusting that a stopped server's port stays free.
package final class HeldPort: @unchecked Sendable {
    /// The port held.
    package let port: Int
    private let descriptor: Int32

    /// Binds `port`; throws `POSIXError` (`EADDRINUSE`) when another socket has it already. With
    /// `letServerListen`, the port is bound with `SO_REUSEADDR`: a server that binds with it too (h2o's listeners do)
    /// can listen on the port while it is held, so a test that brings a server back on the port never lets it go
    /// free in between (release the hold once the server listens). Port-0 binds still pass it over.
    package init(_ port: Int, letServerListen: Bool = false) throws {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        if letServerListen {
            var on: Int32 = 1
            setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &on, socklen_t(MemoryLayout<Int32>.size))
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        let length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) }
        }
        guard bound == 0 else {
            let code = POSIXErrorCode(rawValue: errno) ?? .EIO
            close(descriptor)
            throw POSIXError(code)
        }
        self.port = port
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }
}
