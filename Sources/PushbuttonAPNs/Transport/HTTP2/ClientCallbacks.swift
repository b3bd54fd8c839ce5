#if canImport(CNGHTTP2) && canImport(COpenSSL)
    internal import CNGHTTP2

    /// nghttp2's client callbacks, set up once. Each finds its ``ClientConnection`` through the session's
    /// user data (unretained: the connection owns the session).
    final class ClientCallbacks: @unchecked Sendable {
        // `@unchecked Sendable`: the table is filled once and never changed.
        let callbacks: OpaquePointer

        static let shared = ClientCallbacks()

        private init() {
            var callbacks: OpaquePointer?
            nghttp2_session_callbacks_new(&callbacks)
            self.callbacks = callbacks!
            nghttp2_session_callbacks_set_on_header_callback(self.callbacks, Self.header)
            nghttp2_session_callbacks_set_on_data_chunk_recv_callback(self.callbacks, Self.dataChunk)
            nghttp2_session_callbacks_set_on_frame_recv_callback(self.callbacks, Self.frameReceived)
            nghttp2_session_callbacks_set_on_stream_close_callback(self.callbacks, Self.streamClosed)
        }

        private static func connection(_ userData: UnsafeMutableRawPointer?) -> ClientConnection {
            Unmanaged<ClientConnection>.fromOpaque(userData!).takeUnretainedValue()
        }

        private static let header:
            @convention(c) (
                OpaquePointer?, UnsafePointer<nghttp2_frame>?, UnsafePointer<UInt8>?, Int, UnsafePointer<UInt8>?, Int,
                UInt8, UnsafeMutableRawPointer?
            ) -> Int32 = { _, frame, name, nameLength, value, valueLength, _, userData in
                guard let frame, let name, let value else { return 0 }
                connection(userData).responseHeader(
                    pushbutton_nghttp2_frame_stream_id(frame),
                    name: String(decoding: UnsafeBufferPointer(start: name, count: nameLength), as: UTF8.self),
                    value: String(decoding: UnsafeBufferPointer(start: value, count: valueLength), as: UTF8.self))
                return 0
            }

        private static let dataChunk:
            @convention(c) (OpaquePointer?, UInt8, Int32, UnsafePointer<UInt8>?, Int, UnsafeMutableRawPointer?) -> Int32 =
                { _, _, streamID, data, length, userData in
                    guard let data else { return 0 }
                    connection(userData).responseData(streamID, UnsafeBufferPointer(start: data, count: length))
                    return 0
                }

        private static let frameReceived:
            @convention(c) (OpaquePointer?, UnsafePointer<nghttp2_frame>?, UnsafeMutableRawPointer?) -> Int32 = {
                _, frame, userData in
                guard let frame else { return 0 }
                let type = UInt32(pushbutton_nghttp2_frame_type(frame))
                let isAck = pushbutton_nghttp2_frame_flags(frame) & UInt8(NGHTTP2_FLAG_ACK.rawValue) != 0
                switch type {
                case NGHTTP2_SETTINGS.rawValue where !isAck:
                    connection(userData).settingsArrived()
                case NGHTTP2_GOAWAY.rawValue:
                    var length = 0
                    let data = pushbutton_nghttp2_goaway_data(frame, &length)
                    let reason = data.map {
                        String(decoding: UnsafeBufferPointer(start: $0, count: length), as: UTF8.self)
                    }
                    connection(userData).goawayArrived(reason: reason.flatMap { $0.isEmpty ? nil : $0 })
                case NGHTTP2_PING.rawValue where isAck:
                    connection(userData).pingAcknowledged()
                default:
                    break
                }
                return 0
            }

        private static let streamClosed:
            @convention(c) (OpaquePointer?, Int32, UInt32, UnsafeMutableRawPointer?) -> Int32 = {
                _, streamID, errorCode, userData in
                connection(userData).streamClosed(streamID, errorCode: errorCode)
                return 0
            }

        /// Copies the next part of a request body; the stream is the data source's pointer.
        static let readRequestBody:
            @convention(c) (
                OpaquePointer?, Int32, UnsafeMutablePointer<UInt8>?, Int, UnsafeMutablePointer<UInt32>?,
                UnsafeMutablePointer<nghttp2_data_source>?, UnsafeMutableRawPointer?
            ) -> Int = { _, _, buffer, length, flags, source, _ in
                guard let buffer, let pointer = source?.pointee.ptr else { return 0 }
                let stream = Unmanaged<ClientStream>.fromOpaque(pointer).takeUnretainedValue()
                let body = stream.request.body
                let count = min(length, body.count - stream.bodyOffset)
                body.withUnsafeBufferPointer { bytes in
                    if count > 0 { buffer.update(from: bytes.baseAddress! + stream.bodyOffset, count: count) }
                }
                stream.bodyOffset += count
                if stream.bodyOffset == body.count { flags?.pointee |= UInt32(NGHTTP2_DATA_FLAG_EOF.rawValue) }
                return count
            }
    }
#endif
