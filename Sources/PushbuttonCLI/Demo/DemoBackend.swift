import Foundation
import PushbuttonAPNs
import PushbuttonSupport

/// The demo app's backend: a small HTTP/1.1 server on 127.0.0.1 that answers 503 to its first
/// `failuresFirst` requests and 200 after, recording what arrives. The outbox's real sender (URLSession)
/// talks to it, so the retry and its idempotency key are the real thing.
final class DemoBackend: Sendable {
    struct Received: Sendable {
        var method: String
        var path: String
        var idempotencyKey: String?
        var body: String
        var status: Int
    }

    let port: Int
    private let listener: Int32
    private let failuresFirst: Int
    private let received = Locked([Received]())
    private let stopped = Locked(false)

    init(failuresFirst: Int) throws {
        do {
            (listener, port) = try ListeningSocket.bind(host: "127.0.0.1", port: 0)
        } catch {
            throw CommandFailure("the demo backend cannot listen on 127.0.0.1: \(error.message)")
        }
        self.failuresFirst = failuresFirst
        let thread = Thread { [self] in serve() }
        thread.name = "pushbutton.demo.backend"
        thread.start()
    }

    var requests: [Received] { received.withLock { $0 } }

    func stop() {
        stopped.withLock { $0 = true }
    }

    private func serve() {
        while !stopped.withLock({ $0 }) {
            var descriptor = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, 100) > 0 else { continue }
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else { continue }
            handle(connection)
            close(connection)
        }
        close(listener)
    }

    private func handle(_ connection: Int32) {
        var data = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 4096)
        var headerEnd: Int?
        var contentLength = 0
        while headerEnd.map({ data.count < $0 + contentLength }) ?? true {
            let count = recv(connection, &buffer, buffer.count, 0)
            guard count > 0 else { return }
            data += buffer[0..<count]
            if headerEnd == nil, let end = Self.find([13, 10, 13, 10], in: data) {
                headerEnd = end + 4
                contentLength = Self.header("content-length", in: data[..<end]).flatMap { Int($0) } ?? 0
            }
        }
        guard let bodyStart = headerEnd else { return }
        let head = String(decoding: data[..<(bodyStart - 4)], as: UTF8.self)
        let requestLine = head.split(separator: "\r\n").first.map { $0.split(separator: " ") } ?? []
        let status = received.withLock { $0.count } < failuresFirst ? 503 : 200
        received.withLock {
            $0.append(
                Received(
                    method: requestLine.first.map(String.init) ?? "",
                    path: requestLine.dropFirst().first.map(String.init) ?? "",
                    idempotencyKey: Self.header("idempotency-key", in: data[..<(bodyStart - 4)]),
                    body: String(decoding: data[bodyStart...], as: UTF8.self), status: status))
        }
        let reason = status == 200 ? "OK" : "Service Unavailable"
        let response = "HTTP/1.1 \(status) \(reason)\r\ncontent-length: 0\r\nconnection: close\r\n\r\n"
        _ = response.withCString { send(connection, $0, strlen($0), Int32(MSG_NOSIGNAL)) }
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        return (0...(haystack.count - needle.count)).first { Array(haystack[$0..<($0 + needle.count)]) == needle }
    }

    private static func header(_ name: String, in head: ArraySlice<UInt8>) -> String? {
        for line in String(decoding: head, as: UTF8.self).split(separator: "\r\n") {
            let parts = line.split(separator: ":", maxSplits: 1)
            if parts.count == 2 && parts[0].lowercased() == name {
                return parts[1].trimmingCharacters(in: .whitespaces)
            }
        }
        return nil
    }
}
