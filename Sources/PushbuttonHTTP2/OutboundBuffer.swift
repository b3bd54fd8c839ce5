#if canImport(COpenSSL)
    /// Bytes nghttp2 produced that the socket has not taken yet.
    package struct OutboundBuffer {
        private var bytes: [UInt8] = []
        private var offset = 0

        package init() {}

        package var isEmpty: Bool { offset == bytes.count }

        package mutating func append(_ data: UnsafeBufferPointer<UInt8>) {
            bytes.append(contentsOf: data)
        }

        /// Writes as much as the channel takes. Returns true when everything was written, false when the
        /// socket is full, nil when the connection failed.
        package mutating func write(to channel: SocketChannel) -> Bool? {
            while offset < bytes.count {
                let written = bytes.withUnsafeBytes { channel.send(UnsafeRawBufferPointer(rebasing: $0[offset...])) }
                if written < 0 { return nil }
                if written == 0 { return false }
                offset += written
            }
            // Keep the capacity for the next burst, unless one burst made it unusually large.
            bytes.removeAll(keepingCapacity: bytes.capacity <= 1 << 20)
            offset = 0
            return true
        }
    }
#endif
