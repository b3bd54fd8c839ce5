#if canImport(CNGHTTP2)
    /// The ``NGHTTP2SessionContext`` of one owner type: each callback goes to the owner at +0
    /// (`_withUnsafeGuaranteedRef`), as the owner outlives its session.
    final class NGHTTP2OwnerContext<Owner: NGHTTP2SessionOwner>: NGHTTP2SessionContext {
        private let owner: Unmanaged<Owner>

        init(owner: Owner) {
            self.owner = .passUnretained(owner)
        }

        override func beginStream(_ streamID: Int32) {
            owner._withUnsafeGuaranteedRef { $0.beginStream(streamID) }
        }

        override func header(
            _ streamID: Int32, name: UnsafeBufferPointer<UInt8>, value: UnsafeBufferPointer<UInt8>
        ) {
            owner._withUnsafeGuaranteedRef { $0.header(streamID, name: name, value: value) }
        }

        override func data(_ streamID: Int32, _ bytes: UnsafeBufferPointer<UInt8>) {
            owner._withUnsafeGuaranteedRef { $0.data(streamID, bytes) }
        }

        override func frameReceived(type: UInt32, flags: UInt8, streamID: Int32, goawayReason: String?) {
            owner._withUnsafeGuaranteedRef {
                $0.frameReceived(type: type, flags: flags, streamID: streamID, goawayReason: goawayReason)
            }
        }

        override func streamClosed(_ streamID: Int32, errorCode: UInt32) {
            owner._withUnsafeGuaranteedRef { $0.streamClosed(streamID, errorCode: errorCode) }
        }

        override func readBody(
            _ streamID: Int32, source: UnsafeMutableRawPointer?, into buffer: UnsafeMutablePointer<UInt8>, length: Int
        ) -> (count: Int, finished: Bool) {
            owner._withUnsafeGuaranteedRef { $0.readBody(streamID, source: source, into: buffer, length: length) }
        }
    }
#endif
