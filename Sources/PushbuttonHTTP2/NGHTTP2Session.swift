#if canImport(CNGHTTP2)
    package import CNGHTTP2

    /// What an nghttp2 session tells its owner: the sender's connections and the mock's implement it, and
    /// one callback table serves both.
    package protocol NGHTTP2SessionOwner: AnyObject {
        /// A peer's HEADERS frame opened a request stream (servers).
        func beginStream(_ streamID: Int32)
        /// One header of a stream, as nghttp2 holds it (valid during the call only): owners decode what
        /// they keep, so a header read costs no string.
        func header(_ streamID: Int32, name: UnsafeBufferPointer<UInt8>, value: UnsafeBufferPointer<UInt8>)
        func data(_ streamID: Int32, _ bytes: UnsafeBufferPointer<UInt8>)
        /// A whole frame arrived; `goawayReason` is a GOAWAY's debug data, if any.
        func frameReceived(type: UInt32, flags: UInt8, streamID: Int32, goawayReason: String?)
        func streamClosed(_ streamID: Int32, errorCode: UInt32)
        /// Copies the next part of a body being sent into `buffer`; returns the count and whether the body
        /// is finished. `source` is the data provider's pointer.
        func readBody(
            _ streamID: Int32, source: UnsafeMutableRawPointer?, into buffer: UnsafeMutablePointer<UInt8>, length: Int
        )
            -> (count: Int, finished: Bool)
    }

    extension NGHTTP2SessionOwner {
        package func beginStream(_ streamID: Int32) {}
    }

    /// The session's user data: it forwards nghttp2's callbacks to the session's owner, which it holds
    /// unretained (the owner owns the session and outlives it). ``make(owner:)`` returns a subclass that knows
    /// the owner's type (``NGHTTP2OwnerContext``), so a callback reaches its owner without a retain and a
    /// release of it (a load of an `unowned(unsafe)` existential costs both, several times per answer).
    package class NGHTTP2SessionContext {
        /// The context for `owner`.
        package static func make<Owner: NGHTTP2SessionOwner>(owner: Owner) -> NGHTTP2SessionContext {
            NGHTTP2OwnerContext(owner: owner)
        }

        init() {}

        /// The pointer to give nghttp2 as user data; valid while this context is alive.
        package var userData: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

        // What the callbacks call; ``NGHTTP2OwnerContext`` forwards each to the owner.
        func beginStream(_ streamID: Int32) {}
        func header(_ streamID: Int32, name: UnsafeBufferPointer<UInt8>, value: UnsafeBufferPointer<UInt8>) {}
        func data(_ streamID: Int32, _ bytes: UnsafeBufferPointer<UInt8>) {}
        func frameReceived(type: UInt32, flags: UInt8, streamID: Int32, goawayReason: String?) {}
        func streamClosed(_ streamID: Int32, errorCode: UInt32) {}
        func readBody(
            _ streamID: Int32, source: UnsafeMutableRawPointer?, into buffer: UnsafeMutablePointer<UInt8>, length: Int
        ) -> (count: Int, finished: Bool) { (0, true) }
    }

    /// nghttp2's callbacks, set up once, forwarding to the session's ``NGHTTP2SessionOwner``.
    package final class NGHTTP2Callbacks: @unchecked Sendable {
        // `@unchecked Sendable`: the table is filled once and never changed.
        package let callbacks: OpaquePointer

        package static let shared = NGHTTP2Callbacks()

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

        /// The session's context, at +0: nghttp2 calls back only while its owner (which holds the context)
        /// feeds or drains the session.
        private static func owner(_ userData: UnsafeMutableRawPointer?) -> Unmanaged<NGHTTP2SessionContext> {
            Unmanaged<NGHTTP2SessionContext>.fromOpaque(userData!)
        }

        private static let beginHeaders:
            @convention(c) (OpaquePointer?, UnsafePointer<nghttp2_frame>?, UnsafeMutableRawPointer?) -> Int32 = {
                _, frame, userData in
                guard let frame, pushbutton_nghttp2_frame_type(frame) == UInt8(NGHTTP2_HEADERS.rawValue),
                    pushbutton_nghttp2_headers_category(frame) == UInt8(NGHTTP2_HCAT_REQUEST.rawValue)
                else { return 0 }
                owner(userData)._withUnsafeGuaranteedRef { $0.beginStream(pushbutton_nghttp2_frame_stream_id(frame)) }
                return 0
            }

        private static let header:
            @convention(c) (
                OpaquePointer?, UnsafePointer<nghttp2_frame>?, UnsafePointer<UInt8>?, Int, UnsafePointer<UInt8>?, Int,
                UInt8, UnsafeMutableRawPointer?
            ) -> Int32 = { _, frame, name, nameLength, value, valueLength, _, userData in
                guard let frame, let name, let value else { return 0 }
                owner(userData)._withUnsafeGuaranteedRef {
                    $0.header(
                        pushbutton_nghttp2_frame_stream_id(frame),
                        name: UnsafeBufferPointer(start: name, count: nameLength),
                        value: UnsafeBufferPointer(start: value, count: valueLength))
                }
                return 0
            }

        private static let dataChunk:
            @convention(c) (OpaquePointer?, UInt8, Int32, UnsafePointer<UInt8>?, Int, UnsafeMutableRawPointer?) -> Int32 =
                { _, _, streamID, data, length, userData in
                    guard let data else { return 0 }
                    owner(userData)._withUnsafeGuaranteedRef {
                        $0.data(streamID, UnsafeBufferPointer(start: data, count: length))
                    }
                    return 0
                }

        private static let frameReceived:
            @convention(c) (OpaquePointer?, UnsafePointer<nghttp2_frame>?, UnsafeMutableRawPointer?) -> Int32 = {
                _, frame, userData in
                guard let frame else { return 0 }
                let type = UInt32(pushbutton_nghttp2_frame_type(frame))
                var reason: String?
                if type == NGHTTP2_GOAWAY.rawValue {
                    var length = 0
                    if let data = pushbutton_nghttp2_goaway_data(frame, &length), length > 0 {
                        reason = String(decoding: UnsafeBufferPointer(start: data, count: length), as: UTF8.self)
                    }
                }
                owner(userData)._withUnsafeGuaranteedRef {
                    $0.frameReceived(
                        type: type, flags: pushbutton_nghttp2_frame_flags(frame),
                        streamID: pushbutton_nghttp2_frame_stream_id(frame), goawayReason: reason)
                }
                return 0
            }

        private static let streamClosed:
            @convention(c) (OpaquePointer?, Int32, UInt32, UnsafeMutableRawPointer?) -> Int32 = {
                _, streamID, errorCode, userData in
                owner(userData)._withUnsafeGuaranteedRef { $0.streamClosed(streamID, errorCode: errorCode) }
                return 0
            }

        /// The read callback for bodies: install it in an `nghttp2_data_provider`.
        package static let readBody:
            @convention(c) (
                OpaquePointer?, Int32, UnsafeMutablePointer<UInt8>?, Int, UnsafeMutablePointer<UInt32>?,
                UnsafeMutablePointer<nghttp2_data_source>?, UnsafeMutableRawPointer?
            ) -> Int = { _, streamID, buffer, length, flags, source, userData in
                guard let buffer else { return 0 }
                let (count, finished) = owner(userData)._withUnsafeGuaranteedRef {
                    $0.readBody(streamID, source: source?.pointee.ptr, into: buffer, length: length)
                }
                if finished { flags?.pointee |= UInt32(NGHTTP2_DATA_FLAG_EOF.rawValue) }
                return count
            }
    }
#endif
