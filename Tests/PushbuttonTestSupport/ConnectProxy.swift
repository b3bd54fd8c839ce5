import Foundation
import PushbuttonSupport

#if canImport(Glibc)
    import Glibc
#endif

/// A small HTTP CONNECT proxy on 127.0.0.1 for the tests: it reads one `CONNECT host:port HTTP/1.1` request,
/// checks `Proxy-Authorization: Basic` when it was given credentials (407 without or with wrong ones), refuses
/// targets outside `allowedPorts` with 403, answers 502 when the target cannot be reached, and otherwise
/// answers 200 and relays bytes both ways until either side closes. Every request is remembered.
///
/// Blocking sockets, a thread per direction: a test opens a handful of tunnels, not thousands.
///
/// `@unchecked Sendable`: `requests` and `open` are guarded by `lock`; the listener is set in `init`.
package final class ConnectProxy: @unchecked Sendable {
    /// One CONNECT request as the proxy saw it, and what it answered.
    package struct Request: Sendable {
        package var target: String
        package var authorization: String?
        package var status: Int
    }

    package let port: Int
    private let listener: Int32
    private let credentials: String?
    private let allowedPorts: Set<Int>?
    private let lock = NSLock()
    private var seen: [Request] = []
    private var stopped = false

    /// - Parameters:
    ///   - credentials: `user:password` the client must send (Basic), or nil for none.
    ///   - allowedPorts: the target ports a tunnel may go to (403 for others), nil for any.
    package init(credentials: String? = nil, allowedPorts: Set<Int>? = nil) throws {
        self.credentials = credentials
        self.allowedPorts = allowedPorts
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
        thread.name = "test-connect-proxy"
        thread.start()
    }

    /// `http://127.0.0.1:PORT`, with `user:password@` when given.
    package func url(credentials: String? = nil) -> String {
        "http://" + (credentials.map { $0 + "@" } ?? "") + "127.0.0.1:\(port)"
    }

    /// The CONNECT requests so far.
    package var requests: [Request] { lock.withLock { seen } }

    /// How many tunnels were opened (answered 200).
    package var tunnels: Int { requests.filter { $0.status == 200 }.count }

    /// Stops accepting; tunnels already open end when their peers close.
    package func stop() {
        let first = lock.withLock { () -> Bool in
            defer { stopped = true }
            return !stopped
        }
        guard first else { return }
        // Wakes the accept loop, which closes the listener itself: no descriptor closed under another thread.
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
            if lock.withLock({ stopped }) {
                close(client)
                close(listener)
                return
            }
            let thread = Thread { [self] in serve(client) }
            thread.start()
        }
    }

    private func serve(_ client: Int32) {
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(client, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        guard let head = readHead(client) else {
            close(client)
            return
        }
        var timeoutOff = timeval(tv_sec: 0, tv_usec: 0)
        setsockopt(client, SOL_SOCKET, SO_RCVTIMEO, &timeoutOff, socklen_t(MemoryLayout<timeval>.size))
        let lines = head.components(separatedBy: "\r\n")
        let parts = lines.first?.split(separator: " ").map(String.init) ?? []
        var authorization: String?
        for line in lines.dropFirst() {
            let pieces = line.split(separator: ":", maxSplits: 1)
            if pieces.count == 2, pieces[0].lowercased() == "proxy-authorization" {
                authorization = pieces[1].trimmingCharacters(in: .whitespaces)
            }
        }
        guard parts.count == 3, parts[0] == "CONNECT" else {
            return answer(client, 405, "Method Not Allowed", target: parts.count > 1 ? parts[1] : "", authorization)
        }
        let target = parts[1]
        if let credentials {
            let expected = "Basic " + Data(credentials.utf8).base64EncodedString()
            guard authorization == expected else {
                return answer(
                    client, 407, "Proxy Authentication Required", target: target, authorization,
                    extra: "Proxy-Authenticate: Basic realm=\"test\"\r\n")
            }
        }
        guard let colon = target.lastIndex(of: ":"), let port = Int(target[target.index(after: colon)...]) else {
            return answer(client, 400, "Bad Request", target: target, authorization)
        }
        if let allowedPorts, !allowedPorts.contains(port) {
            return answer(client, 403, "Forbidden", target: target, authorization)
        }
        let host = String(target[..<colon])
        guard let upstream = Self.connect(host: host, port: port) else {
            return answer(client, 502, "Bad Gateway", target: target, authorization)
        }
        record(Request(target: target, authorization: authorization, status: 200))
        _ = Self.writeAll(client, Array("HTTP/1.1 200 Connection Established\r\n\r\n".utf8))
        let done = DispatchSemaphore(value: 0)
        let forward = Thread {
            Self.relay(from: client, to: upstream)
            done.signal()
        }
        forward.start()
        Self.relay(from: upstream, to: client)
        done.wait()
        close(client)
        close(upstream)
    }

    private func answer(
        _ client: Int32, _ status: Int, _ reason: String, target: String, _ authorization: String?, extra: String = ""
    ) {
        record(Request(target: target, authorization: authorization, status: status))
        _ = Self.writeAll(client, Array("HTTP/1.1 \(status) \(reason)\r\n\(extra)Content-Length: 0\r\n\r\n".utf8))
        shutdown(client, Int32(SHUT_WR))
        close(client)
    }

    private func record(_ request: Request) {
        lock.withLock { seen.append(request) }
    }

    /// The request's head (up to the blank line), byte by byte so no tunnelled byte is read with it.
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

    private static func connect(host: String, port: Int) -> Int32? {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var addresses: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &addresses) == 0, let address = addresses else { return nil }
        defer { freeaddrinfo(addresses) }
        let descriptor = socket(address.pointee.ai_family, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { return nil }
        guard Glibc.connect(descriptor, address.pointee.ai_addr, address.pointee.ai_addrlen) == 0 else {
            close(descriptor)
            return nil
        }
        return descriptor
    }

    private static func relay(from source: Int32, to destination: Int32) {
        var buffer = [UInt8](repeating: 0, count: 16_384)
        while true {
            let count = recv(source, &buffer, buffer.count, 0)
            if count < 0 && errno == EINTR { continue }
            guard count > 0, writeAll(destination, Array(buffer[0..<count])) else { break }
        }
        shutdown(destination, Int32(SHUT_WR))
    }

    private static func writeAll(_ descriptor: Int32, _ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
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
