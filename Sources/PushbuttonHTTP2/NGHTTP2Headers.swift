#if canImport(CNGHTTP2)
    package import CNGHTTP2

    /// Builds nghttp2's name-value array for a header list (the sender's requests, the mock's answers).
    /// nghttp2 copies the names and values while submitting, so the storage only has to live for the call.
    package enum NGHTTP2Headers {
        package static func withNameValues<Result>(
            _ headers: [(String, String)], _ body: (UnsafePointer<nghttp2_nv>, Int) -> Result
        ) -> Result {
            let total = headers.reduce(0) { $0 + $1.0.utf8.count + $1.1.utf8.count }
            let storage = UnsafeMutablePointer<UInt8>.allocate(capacity: max(total, 1))
            defer { storage.deallocate() }
            var nameValues: [nghttp2_nv] = []
            nameValues.reserveCapacity(headers.count)
            var cursor = storage
            for (name, value) in headers {
                let namePointer = cursor
                cursor = copy(name, to: cursor)
                let valuePointer = cursor
                cursor = copy(value, to: cursor)
                nameValues.append(
                    nghttp2_nv(
                        name: namePointer, value: valuePointer, namelen: name.utf8.count, valuelen: value.utf8.count,
                        flags: UInt8(NGHTTP2_NV_FLAG_NONE.rawValue)))
            }
            return nameValues.withUnsafeBufferPointer { body($0.baseAddress!, $0.count) }
        }

        private static func copy(_ text: String, to destination: UnsafeMutablePointer<UInt8>) -> UnsafeMutablePointer<
            UInt8
        > {
            var text = text
            return text.withUTF8 { bytes in
                guard let base = bytes.baseAddress else { return destination }
                destination.update(from: base, count: bytes.count)
                return destination + bytes.count
            }
        }
    }
#endif
