#if canImport(COpenSSL)
    import Foundation

    /// The HTTP CONNECT exchange with a proxy on a connected non-blocking socket, before TLS: writes
    /// `CONNECT target HTTP/1.1` (with `Proxy-Authorization` when given), reads the proxy's answer head, and
    /// leaves the socket at the first byte of the tunnel. Used by one thread at a time.
    package final class ProxyTunnel {
        /// How a step of the exchange ended.
        package enum Step: Equatable {
            case done
            case wantsRead
            case wantsWrite
            case failed(String)
        }

        /// The proxy as messages show it (without credentials).
        package let proxyName: String
        /// `host:port` the tunnel goes to.
        package let target: String
        private let hasCredentials: Bool
        private let request: [UInt8]
        private var written = 0
        /// An answer head longer than this is not a proxy's.
        private static let headLimit = 16_384

        /// - Parameters:
        ///   - authorization: the whole `Proxy-Authorization` value (`Basic …`), or nil.
        package init(proxyName: String, targetHost: String, targetPort: Int, authorization: String?) {
            self.proxyName = proxyName
            let host = targetHost.contains(":") ? "[\(targetHost)]" : targetHost
            target = "\(host):\(targetPort)"
            hasCredentials = authorization != nil
            var text = "CONNECT \(target) HTTP/1.1\r\nHost: \(target)\r\n"
            if let authorization { text += "Proxy-Authorization: \(authorization)\r\n" }
            text += "\r\n"
            request = Array(text.utf8)
        }

        /// Whether part of the request still waits to be written (the socket's writability matters, not its input).
        package var isSending: Bool { written < request.count }

        /// Advances the exchange on `socket`.
        package func advance(socket: Int32) -> Step {
            while written < request.count {
                let result = request[written...].withUnsafeBytes {
                    Foundation.send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
                }
                if result > 0 {
                    written += result
                    continue
                }
                if result < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) { return .wantsWrite }
                return .failed("the proxy \(proxyName) closed the connection before the CONNECT request was sent")
            }
            // Peek, so that only the answer's head is taken off the socket: what follows belongs to TLS.
            var buffer = [UInt8](repeating: 0, count: Self.headLimit)
            let count = recv(socket, &buffer, buffer.count, Int32(MSG_PEEK))
            if count < 0 {
                if errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR { return .wantsRead }
                return .failed(
                    "the proxy \(proxyName) closed the tunnel to \(target): \(String(cString: strerror(errno)))")
            }
            guard count > 0 else {
                return .failed("the proxy \(proxyName) closed the connection without answering CONNECT \(target)")
            }
            guard let end = Self.headEnd(in: buffer[0..<count]) else {
                if count == Self.headLimit {
                    return .failed("the proxy \(proxyName) answered CONNECT with a head longer than 16 KiB")
                }
                return .wantsRead
            }
            _ = recv(socket, &buffer, end, 0)  // consume exactly the head
            return verdict(head: buffer[0..<end])
        }

        /// The index just past the blank line that ends an HTTP head.
        private static func headEnd(in bytes: ArraySlice<UInt8>) -> Int? {
            var index = bytes.startIndex
            while index + 3 < bytes.endIndex {
                if bytes[index] == 13 && bytes[index + 1] == 10 && bytes[index + 2] == 13 && bytes[index + 3] == 10 {
                    return index + 4
                }
                index += 1
            }
            return nil
        }

        private func verdict(head: ArraySlice<UInt8>) -> Step {
            let statusLine = head.prefix { $0 != 13 && $0 != 10 }
            // "HTTP/1.1 407 Proxy Authentication Required": the version, the status, a reason shown as text.
            let parts = statusLine.split(separator: 0x20, maxSplits: 2, omittingEmptySubsequences: true)
            guard parts.count >= 2, parts[0].starts(with: Array("HTTP/1.".utf8)),
                let status = Int(String(decoding: parts[1], as: UTF8.self)), (100...999).contains(status)
            else {
                return .failed("the proxy \(proxyName) did not answer CONNECT in HTTP/1.1 (is it an HTTP proxy?)")
            }
            if (200...299).contains(status) { return .done }
            let reason =
                parts.count > 2
                ? " " + String(decoding: parts[2].prefix(80).filter { $0 >= 0x20 && $0 < 0x7F }, as: UTF8.self) : ""
            let answer = "\(status)\(reason)"
            switch status {
            case 407 where hasCredentials:
                return .failed(
                    "the proxy \(proxyName) refused the credentials for a tunnel to \(target) (\(answer)): check the "
                        + "user and password in the proxy URL")
            case 407:
                return .failed(
                    "the proxy \(proxyName) wants credentials for a tunnel to \(target) (\(answer)): give them in the "
                        + "proxy URL, http://user:password@host:port")
            case 403:
                return .failed(
                    "the proxy \(proxyName) does not allow a tunnel to \(target) (\(answer)): ask its operator to "
                        + "allow CONNECT to that host and port")
            case 502, 503, 504:
                return .failed("the proxy \(proxyName) could not reach \(target) (\(answer))")
            default:
                return .failed("the proxy \(proxyName) refused the tunnel to \(target) (\(answer))")
            }
        }
    }
#endif
