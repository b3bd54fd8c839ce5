internal import CNGHTTP2

/// nghttp2's server callbacks, set up once. Each one finds its ``MockConnection`` through the session's
/// user data (an unretained reference: the connection owns the session and outlives it).
final class NGHTTP2Callbacks: @unchecked Sendable {
    // `@unchecked Sendable`: the callbacks table is filled once and never changed afterwards.
    let callbacks: OpaquePointer

    static let shared = NGHTTP2Callbacks()

    private init() {
        var callbacks: OpaquePointer?
        nghttp2_session_callbacks_new(&callbacks)
        self.callbacks = callbacks!
        nghttp2_session_callbacks_set_on_begin_headers_callback(self.callbacks, Self.beginHeaders)
        nghttp2_session_callbacks_set_on_header_callback(self.callbacks, Self.header)
        nghttp2_session_callbacks_set_on_data_chunk_recv_callback(self.callbacks, Self.dataChunk)
        nghttp2_session_callbacks_set_on_frame_recv_callback(self.callbacks, Self.frameReceived)
        nghttp2_session_callbacks_set_on_stream_close_callback(self.callbacks, Self.streamClosed)
    }

    private static func connection(_ userData: UnsafeMutableRawPointer?) -> MockConnection {
        Unmanaged<MockConnection>.fromOpaque(userData!).takeUnretainedValue()
    }

    private static let beginHeaders:
        @convention(c) (OpaquePointer?, UnsafePointer<nghttp2_frame>?, UnsafeMutableRawPointer?) -> Int32 = {
            _, frame, userData in
            guard let frame, pushbutton_nghttp2_frame_type(frame) == UInt8(NGHTTP2_HEADERS.rawValue),
                pushbutton_nghttp2_headers_category(frame) == UInt8(NGHTTP2_HCAT_REQUEST.rawValue)
            else { return 0 }
            connection(userData).beginStream(pushbutton_nghttp2_frame_stream_id(frame))
            return 0
        }

    private static let header:
        @convention(c) (
            OpaquePointer?, UnsafePointer<nghttp2_frame>?, UnsafePointer<UInt8>?, Int, UnsafePointer<UInt8>?, Int,
            UInt8, UnsafeMutableRawPointer?
        ) -> Int32 = { _, frame, name, nameLength, value, valueLength, _, userData in
            guard let frame, let name, let value else { return 0 }
            connection(userData).header(
                pushbutton_nghttp2_frame_stream_id(frame),
                name: String(decoding: UnsafeBufferPointer(start: name, count: nameLength), as: UTF8.self),
                value: String(decoding: UnsafeBufferPointer(start: value, count: valueLength), as: UTF8.self))
            return 0
        }

    private static let dataChunk:
        @convention(c) (OpaquePointer?, UInt8, Int32, UnsafePointer<UInt8>?, Int, UnsafeMutableRawPointer?) -> Int32 = {
            _, _, streamID, data, length, userData in
            guard let data else { return 0 }
            connection(userData).data(streamID, UnsafeBufferPointer(start: data, count: length))
            return 0
        }

    private static let frameReceived:
        @convention(c) (OpaquePointer?, UnsafePointer<nghttp2_frame>?, UnsafeMutableRawPointer?) -> Int32 = {
            _, frame, userData in
            guard let frame else { return 0 }
            let type = pushbutton_nghttp2_frame_type(frame)
            let endsStream = pushbutton_nghttp2_frame_flags(frame) & UInt8(NGHTTP2_FLAG_END_STREAM.rawValue) != 0
            if endsStream && (type == UInt8(NGHTTP2_HEADERS.rawValue) || type == UInt8(NGHTTP2_DATA.rawValue)) {
                connection(userData).requestComplete(pushbutton_nghttp2_frame_stream_id(frame))
            }
            let isAck = pushbutton_nghttp2_frame_flags(frame) & UInt8(NGHTTP2_FLAG_ACK.rawValue) != 0
            if type == UInt8(NGHTTP2_PING.rawValue) && !isAck { connection(userData).pingReceived() }
            return 0
        }

    private static let streamClosed: @convention(c) (OpaquePointer?, Int32, UInt32, UnsafeMutableRawPointer?) -> Int32 =
        {
            _, streamID, _, userData in
            connection(userData).streamClosed(streamID)
            return 0
        }

    static let readResponseBody:
        @convention(c) (
            OpaquePointer?, Int32, UnsafeMutablePointer<UInt8>?, Int, UnsafeMutablePointer<UInt32>?,
            UnsafeMutablePointer<nghttp2_data_source>?, UnsafeMutableRawPointer?
        ) -> Int = { _, streamID, buffer, length, flags, _, userData in
            guard let buffer else { return 0 }
            let (count, finished) = connection(userData).readResponseBody(streamID, into: buffer, length: length)
            if finished { flags?.pointee |= UInt32(NGHTTP2_DATA_FLAG_EOF.rawValue) }
            return count
        }
}
