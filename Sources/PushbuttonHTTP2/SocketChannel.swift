#if canImport(COpenSSL)
    import Foundation
    internal import COpenSSL

    /// A non-blocking TCP socket, optionally wrapped in TLS: what the nghttp2 sender and the mock APNs read
    /// from and write to. Used by one thread at a time.
    package final class SocketChannel {
        /// How a TLS handshake step ended.
        package enum Handshake: Equatable {
            case done
            case wantsRead
            case wantsWrite
            case failed(String)
        }

        package let socket: Int32
        private let ssl: OpaquePointer?
        private var closed = false

        /// Takes ownership of `socket` and of `ssl` (an OpenSSL `SSL*` already bound to it, or nil for cleartext).
        package init(socket: Int32, ssl: OpaquePointer?) {
            self.socket = socket
            self.ssl = ssl
        }

        deinit {
            close()
            if let ssl { SSL_free(ssl) }
        }

        package var isTLS: Bool { ssl != nil }

        /// OpenSSL's reason when a read failed at the TLS layer (an alert from the peer), nil otherwise.
        package private(set) var lastTLSError: String?

        /// Advances the TLS handshake (cleartext channels are always done).
        package func handshake() -> Handshake {
            guard let ssl else { return .done }
            let result = SSL_do_handshake(ssl)
            if result == 1 { return .done }
            switch SSL_get_error(ssl, result) {
            case SSL_ERROR_WANT_READ: return .wantsRead
            case SSL_ERROR_WANT_WRITE: return .wantsWrite
            default:
                let verification = SSL_get_verify_result(ssl)
                if verification != X509_V_OK {
                    ERR_clear_error()
                    return .failed(
                        "TLS certificate verification failed: \(String(cString: X509_verify_cert_error_string(verification)))"
                    )
                }
                return .failed("TLS handshake failed: \(Self.lastOpenSSLError())")
            }
        }

        /// The protocol the server picked with ALPN, if any.
        package var negotiatedProtocol: String? {
            guard let ssl else { return nil }
            var name: UnsafePointer<UInt8>?
            var length: UInt32 = 0
            SSL_get0_alpn_selected(ssl, &name, &length)
            guard let name, length > 0 else { return nil }
            return String(decoding: UnsafeBufferPointer(start: name, count: Int(length)), as: UTF8.self)
        }

        /// The peer's certificate (DER), once the TLS handshake is done; nil in cleartext or when it sent none.
        package var peerCertificateDER: [UInt8]? {
            guard let ssl, let certificate = SSL_get1_peer_certificate(ssl) else { return nil }
            defer { X509_free(certificate) }
            var output: UnsafeMutablePointer<UInt8>?
            let length = i2d_X509(certificate, &output)
            guard length > 0, let output else { return nil }
            defer { pushbutton_openssl_free(output) }
            return Array(UnsafeBufferPointer(start: output, count: Int(length)))
        }

        /// Reads into `buffer`: the byte count, 0 when the peer closed or the connection failed, -1 when
        /// nothing can be read now.
        package func receive(into buffer: UnsafeMutableBufferPointer<UInt8>) -> Int {
            if let ssl {
                let count = SSL_read(ssl, buffer.baseAddress, Int32(buffer.count))
                if count > 0 { return Int(count) }
                let error = SSL_get_error(ssl, count)
                if error == SSL_ERROR_WANT_READ || error == SSL_ERROR_WANT_WRITE { return -1 }
                // Kept for the close's message: a TLS alert after the handshake (a server that wanted a client
                // certificate, under TLS 1.3) says more than "closed".
                if error == SSL_ERROR_SSL { lastTLSError = Self.lastOpenSSLError() }
                ERR_clear_error()
                return 0
            }
            let count = recv(socket, buffer.baseAddress, buffer.count, 0)
            if count > 0 { return count }
            if count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) { return -1 }
            return 0
        }

        /// Writes from `bytes`: the byte count, 0 when nothing can be written now, -1 when the connection failed.
        package func send(_ bytes: UnsafeRawBufferPointer) -> Int {
            if let ssl {
                let result = SSL_write(ssl, bytes.baseAddress, Int32(min(bytes.count, Int(Int32.max))))
                if result > 0 { return Int(result) }
                let error = SSL_get_error(ssl, result)
                if error == SSL_ERROR_WANT_WRITE || error == SSL_ERROR_WANT_READ { return 0 }
                ERR_clear_error()
                return -1
            }
            let result = Foundation.send(socket, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL))
            if result >= 0 { return result }
            return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR ? 0 : -1
        }

        /// Whether the TLS layer waits for the socket to become writable (during a handshake).
        package var tlsWantsWrite: Bool {
            guard let ssl else { return false }
            return SSL_want(ssl) == SSL_WRITING
        }

        /// Sends FIN after what was written, keeping the socket open for reading.
        package func shutdownWrites() {
            shutdown(socket, Int32(SHUT_WR))
        }

        package func close() {
            guard !closed else { return }
            closed = true
            Foundation.close(socket)
        }

        /// The most recent error on this thread's OpenSSL queue, as text (and clears the queue).
        private static func lastOpenSSLError() -> String {
            let code = ERR_get_error()
            ERR_clear_error()
            guard code != 0 else { return "unknown OpenSSL error" }
            var buffer = [CChar](repeating: 0, count: 256)
            ERR_error_string_n(code, &buffer, buffer.count)
            return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }

        /// Makes a descriptor non-blocking and close-on-exec.
        package static func configure(_ descriptor: Int32) {
            _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
            _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
            var one: Int32 = 1
            setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        }
    }
#endif
