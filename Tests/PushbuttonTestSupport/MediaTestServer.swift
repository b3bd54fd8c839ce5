import Foundation
import PushbuttonSupport

#if canImport(Glibc)
    import Glibc
#endif

/// A tiny HTTP/1.1 server on 127.0.0.1 (port 0) for media downloads: each path answers as its ``Response`` says
/// (a body, a redirect, a stall, an endless or huge stream), one request per connection. It counts the requests
/// and the bytes it managed to send per path, so a test sees that a client stopped reading.
///
/// Blocking sockets, a thread per connection: a test opens a handful. ``stop()`` shuts every open connection.
///
/// `@unchecked Sendable`: its counters and open connections are behind `lock`; the rest is set in `init`.
package final class MediaTestServer: @unchecked Sendable {
    /// How a path answers.
    package enum Response: Sendable {
        /// A whole response.
        case body(status: Int, contentType: String, bytes: [UInt8])
        /// `302` to `location` (a path of this server, or a whole URL).
        case redirect(to: String)
        /// `200` with a `Content-Length` of `declaredLength`, then nothing, until the client or ``stop()`` closes.
        case stall(declaredLength: Int)
        /// `200`: `prefix`, then zero bytes up to `total` bytes; `Content-Length` only when `declaresLength`.
        case stream(contentType: String, prefix: [UInt8], total: Int, declaresLength: Bool)
    }

    package let port: Int
    private let listener: Int32
    private let routes: [String: Response]
    private let lock = NSLock()
    private var seen: [String] = []
    private var sent: [String: Int] = [:]
    private var open: Set<Int32> = []
    private var abandoned: Set<String> = []
    private var stopped = false
    private let greeting: [UInt8]?

    /// - Parameter greeting: bytes written as soon as a connection is accepted, without reading a request, which
    ///   then closes (plain HTTP bytes to a client that expects a TLS handshake).
    package init(routes: [String: Response], greeting: [UInt8]? = nil) throws {
        self.routes = routes
        self.greeting = greeting
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw Failure("socket: \(String(cString: strerror(errno)))") }
        var one: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, listen(descriptor, 64) == 0 else {
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
        thread.name = "test-media-server"
        thread.start()
    }

    /// `http://127.0.0.1:PORT` + `path`.
    package func url(_ path: String) -> String { "http://127.0.0.1:\(port)\(path)" }

    /// The paths requested so far, in order.
    package var requests: [String] { lock.withLock { seen } }

    /// The body bytes sent so far for `path` (as far as the kernel took them).
    package func bytesSent(_ path: String) -> Int { lock.withLock { sent[path] ?? 0 } }

    /// Whether a stream on `path` ended because the client closed the connection before its end.
    package func abandoned(_ path: String) -> Bool { lock.withLock { abandoned.contains(path) } }

    /// Stops accepting and shuts every open connection.
    package func stop() {
        let connections = lock.withLock { () -> Set<Int32>? in
            guard !stopped else { return nil }
            stopped = true
            return open
        }
        guard let connections else { return }
        for connection in connections { shutdown(connection, Int32(SHUT_RDWR)) }
        shutdown(listener, Int32(SHUT_RDWR))
    }

    deinit { stop() }

    package struct Failure: Error, CustomStringConvertible {
        package var description: String
        init(_ description: String) { self.description = description }
    }

    private func acceptLoop() {
        while true {
            let client = accept(listener, nil, nil)
            if client < 0 {
                if errno == EINTR { continue }
                close(listener)
                return
            }
            let accepted = lock.withLock { () -> Bool in
                guard !stopped else { return false }
                open.insert(client)
                return true
            }
            guard accepted else {
                close(client)
                close(listener)
                return
            }
            let thread = Thread { [self] in
                serve(client)
                lock.withLock { _ = open.remove(client) }
                close(client)
            }
            thread.start()
        }
    }

    private func serve(_ client: Int32) {
        if let greeting {
            _ = sendAll(client, greeting, nil)
            return
        }
        guard let head = readHead(client) else { return }
        let parts = head.split(separator: "\r\n").first?.split(separator: " ") ?? []
        let path = parts.count >= 2 ? String(parts[1]) : "/"
        lock.withLock { seen.append(path) }
        guard let response = routes[path] else {
            write(client, path, head: "HTTP/1.1 404 Not Found\r\nContent-Length: 9\r\n", body: Array("not found".utf8))
            return
        }
        switch response {
        case .body(let status, let contentType, let bytes):
            write(
                client, path,
                head: "HTTP/1.1 \(status) Status\r\nContent-Type: \(contentType)\r\n"
                    + "Content-Length: \(bytes.count)\r\n", body: bytes)
        case .redirect(let location):
            let target = location.hasPrefix("/") ? url(location) : location
            write(client, path, head: "HTTP/1.1 302 Found\r\nLocation: \(target)\r\nContent-Length: 0\r\n", body: [])
        case .stall(let declaredLength):
            write(client, path, head: "HTTP/1.1 200 OK\r\nContent-Length: \(declaredLength)\r\n", body: [])
            var byte: UInt8 = 0
            while recv(client, &byte, 1, 0) > 0 {}  // until the client gives up or stop() shuts it
        case .stream(let contentType, let prefix, let total, let declaresLength):
            let length = declaresLength ? "Content-Length: \(total)\r\n" : ""
            let chunk = [UInt8](repeating: 0, count: 65_536)
            var remaining = total - prefix.count
            var complete = write(
                client, path, head: "HTTP/1.1 200 OK\r\nContent-Type: \(contentType)\r\n\(length)", body: prefix)
            while complete && remaining > 0 {
                let piece = remaining >= chunk.count ? chunk : Array(chunk.prefix(remaining))
                complete = sendAll(client, piece, path)
                remaining -= piece.count
            }
            if !complete { lock.withLock { _ = abandoned.insert(path) } }
        }
    }

    /// The head (a `Connection: close` added) and the body; whether all of it was sent.
    @discardableResult
    private func write(_ client: Int32, _ path: String, head: String, body: [UInt8]) -> Bool {
        guard sendAll(client, Array((head + "Connection: close\r\n\r\n").utf8), nil) else { return false }
        return sendAll(client, body, path)
    }

    private func sendAll(_ descriptor: Int32, _ bytes: [UInt8], _ path: String?) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes {
                send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { return false }
            offset += written
            if let path { lock.withLock { sent[path, default: 0] += written } }
        }
        return true
    }

    private func readHead(_ client: Int32) -> String? {
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        while bytes.count < 16_384 {
            guard recv(client, &byte, 1, 0) == 1 else { return nil }
            bytes.append(byte)
            if bytes.count >= 4 && bytes.suffix(4) == [13, 10, 13, 10] {
                return String(decoding: bytes.dropLast(4), as: UTF8.self)
            }
        }
        return nil
    }
}
