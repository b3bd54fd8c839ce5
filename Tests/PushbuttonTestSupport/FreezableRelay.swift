import Foundation
import PushbuttonSupport

#if canImport(Glibc)
    import Glibc
#endif

/// A TCP relay on 127.0.0.1 to a local port whose open connections can be frozen: a black-holed link in one
/// process. Frozen, a connection forwards nothing either way (what it reads is held, not lost, as packets a
/// dropped link retransmits later); thawed, the held bytes go on. Connections opened after a freeze carry.
///
/// Blocking sockets, a thread per direction: a test opens a handful of connections. A client that closes a frozen
/// connection has its held bytes delivered on the thaw, then the close, as TCP would.
///
/// `@unchecked Sendable`: the mutable state is guarded by `condition`; the listener is set in `init`.
package final class FreezableRelay: @unchecked Sendable {
    package let port: Int
    private let target: Int
    private let listener: Int32
    private let condition = NSCondition()
    private var stopped = false
    /// Connections opened so far; those numbered up to `frozenThrough` are frozen.
    private var opened = 0
    private var frozenThrough = 0
    /// Bytes read from the clients of frozen connections and held.
    private var held = 0

    package init(to target: Int) throws {
        self.target = target
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw Failure("socket: \(String(cString: strerror(errno)))") }
        var address = Self.loopback(port: 0)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, listen(descriptor, 16) == 0 else {
            close(descriptor)
            throw Failure("bind/listen: \(String(cString: strerror(errno)))")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        listener = descriptor
        port = Int(UInt16(bigEndian: address.sin_port))
        let thread = Thread { [self] in acceptLoop() }
        thread.name = "test-freezable-relay"
        thread.start()
    }

    /// Connections opened so far.
    package var connections: Int { condition.withLock { opened } }

    /// Bytes the clients of frozen connections wrote since they froze (held, not forwarded).
    package var heldBytes: Int { condition.withLock { held } }

    /// Freezes every connection open now.
    package func freeze() { condition.withLock { frozenThrough = opened } }

    /// Lets the frozen connections carry again, held bytes first.
    package func thaw() {
        condition.withLock {
            frozenThrough = 0
            condition.broadcast()
        }
    }

    /// Stops accepting and thaws; connections end when their peers close.
    package func stop() {
        let first = condition.withLock { () -> Bool in
            defer {
                stopped = true
                frozenThrough = 0
                condition.broadcast()
            }
            return !stopped
        }
        guard first else { return }
        shutdown(listener, Int32(SHUT_RDWR))  // the accept loop closes it
    }

    deinit { stop() }

    package struct Failure: Error, CustomStringConvertible {
        package var description: String
        init(_ description: String) { self.description = description }
    }

    private static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }

    private func acceptLoop() {
        while true {
            let client = accept(listener, nil, nil)
            if client < 0 {
                if errno == EINTR { continue }
                close(listener)
                return
            }
            let upstream = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = Self.loopback(port: target)
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    Glibc.connect(upstream, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            let number = condition.withLock { () -> Int? in
                guard !stopped, connected == 0 else { return nil }
                opened += 1
                return opened
            }
            guard let number else {
                close(client)
                close(upstream)
                continue
            }
            let done = DispatchSemaphore(value: 0)
            Thread { [self] in
                relay(number, from: client, to: upstream, fromClient: true)
                done.signal()
            }.start()
            Thread { [self] in
                relay(number, from: upstream, to: client, fromClient: false)
                done.wait()
                close(client)
                close(upstream)
            }.start()
        }
    }

    private func relay(_ number: Int, from source: Int32, to destination: Int32, fromClient: Bool) {
        // Reads go on while frozen (held bytes pile up here, counted); a short receive timeout lets a thaw
        // forward them though nothing more arrives.
        var timeout = timeval(tv_sec: 0, tv_usec: 20_000)
        setsockopt(source, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var buffer = [UInt8](repeating: 0, count: 16_384)
        var pending: [UInt8] = []
        var open = true
        while open || !pending.isEmpty {
            var count = 0
            if open {
                count = recv(source, &buffer, buffer.count, 0)
                if count < 0 && (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK) {
                    count = 0
                } else if count <= 0 {
                    open = false
                    count = 0
                }
            }
            let frozen = condition.withLock { () -> Bool in
                let frozen = number <= frozenThrough && !stopped
                if frozen && fromClient { held += count }
                return frozen
            }
            pending += buffer[0..<count]
            if frozen {
                if !open { condition.withLock { while number <= frozenThrough && !stopped { condition.wait() } } }
                continue
            }
            guard pending.isEmpty || writeAll(destination, pending[...]) else { break }
            pending.removeAll(keepingCapacity: true)
        }
        shutdown(destination, Int32(SHUT_WR))
    }

    private func writeAll(_ descriptor: Int32, _ bytes: ArraySlice<UInt8>) -> Bool {
        var offset = bytes.startIndex
        while offset < bytes.endIndex {
            let written = bytes[offset...].withUnsafeBytes {
                send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { return false }
            offset += written
        }
        return true
    }
}
