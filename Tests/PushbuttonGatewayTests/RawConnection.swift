import Glibc

/// A blocking TCP connection to 127.0.0.1 that speaks HTTP by hand: what a hostile client sends, which no
/// client library would.
final class RawConnection: @unchecked Sendable {
    // `@unchecked Sendable`: the descriptor is set once; one thread writes while another may read, which the
    // kernel allows on a socket.
    let descriptor: Int32

    struct Failure: Error, CustomStringConvertible { var description: String }

    init(port: Int) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw Failure(description: "socket: errno \(errno)") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            let code = errno
            Glibc.close(descriptor)
            throw Failure(description: "connect to 127.0.0.1:\(port): errno \(code)")
        }
    }

    /// Sends every byte; false once the peer closed or reset the connection.
    @discardableResult
    func send(_ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes.withUnsafeBytes {
                Glibc.send(descriptor, $0.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL))
            }
            if sent < 0 && errno == EINTR { continue }
            if sent <= 0 { return false }
            offset += sent
        }
        return true
    }

    /// The next bytes the peer sent; empty at its end (or a reset).
    func receive(upTo count: Int = 65536) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: count)
        while true {
            let read = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, count, 0) }
            if read < 0 && errno == EINTR { continue }
            return read > 0 ? Array(buffer.prefix(read)) : []
        }
    }

    /// Reads until `enough` says the bytes so far are enough, or the peer's end; returns what was read.
    func receive(until enough: ([UInt8]) -> Bool) -> [UInt8] {
        var all: [UInt8] = []
        while !enough(all) {
            let chunk = receive()
            if chunk.isEmpty { break }
            all += chunk
        }
        return all
    }

    /// Reads until the peer's end (or reset) and returns how many bytes came.
    func drain() -> Int {
        var total = 0
        while true {
            let chunk = receive()
            if chunk.isEmpty { return total }
            total += chunk.count
        }
    }

    /// Stops sending and receiving (a reader blocked in ``receive(upTo:)`` returns) without freeing the descriptor.
    func shutdown() { _ = Glibc.shutdown(descriptor, Int32(SHUT_RDWR)) }

    func close() { Glibc.close(descriptor) }
}
