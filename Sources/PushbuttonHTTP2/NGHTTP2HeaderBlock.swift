#if canImport(CNGHTTP2)
    package import CNGHTTP2
    import Foundation

    /// A header list for one `nghttp2_submit_*` call, written into storage that lives as long as its owner
    /// (a connection) and is reused for every request: filling it allocates nothing once it has grown to
    /// the largest list seen. nghttp2 copies names and values while submitting, so the block can be
    /// cleared and refilled right after.
    package final class NGHTTP2HeaderBlock {
        private struct Field {
            var name: Int
            var nameLength: Int
            var value: Int
            var valueLength: Int
            var flags: UInt8
        }

        private var storage: UnsafeMutablePointer<UInt8>
        private var capacity: Int
        private var used = 0
        private var fields: [Field] = []
        private var nameValues: [nghttp2_nv] = []
        /// Whether `nameValues` describes the fields as they are (a value rewritten in place keeps it so).
        private var nameValuesCurrent = false

        package init(capacity: Int = 2048) {
            self.capacity = max(64, capacity)
            storage = .allocate(capacity: self.capacity)
            fields.reserveCapacity(16)
            nameValues.reserveCapacity(16)
        }

        deinit { storage.deallocate() }

        package var count: Int { fields.count }

        package func removeAll() {
            used = 0
            fields.removeAll(keepingCapacity: true)
            nameValuesCurrent = false
        }

        /// Calls `body` with the storage of field `index`'s value, to rewrite it in place with as many bytes
        /// (the next request's path of the same length, its apns-id): the fields stay as they are, and
        /// nghttp2's name-value array needs no rebuilding.
        package func rewriteValue<Result>(
            ofField index: Int, _ body: (UnsafeMutableBufferPointer<UInt8>) -> Result
        ) -> Result {
            let field = fields[index]
            return body(UnsafeMutableBufferPointer(start: storage + field.value, count: field.valueLength))
        }

        /// Adds a field; `indexed: false` keeps a value that differs on every request (a path, an id) out
        /// of the HPACK dynamic table, where it would only evict the values worth remembering.
        package func add(_ name: StaticString, _ value: String, indexed: Bool = true) {
            let start = append(name)
            var value = value
            let valueStart = value.withUTF8 { append(UnsafeRawBufferPointer($0)) }
            field(start, name.utf8CodeUnitCount, valueStart, used - valueStart, indexed)
        }

        package func add(_ name: StaticString, _ value: StaticString, indexed: Bool = true) {
            add(
                name, bytes: UnsafeRawBufferPointer(start: value.utf8Start, count: value.utf8CodeUnitCount),
                indexed: indexed)
        }

        package func add(_ name: StaticString, bytes value: UnsafeRawBufferPointer, indexed: Bool = true) {
            let start = append(name)
            let valueStart = append(value)
            field(start, name.utf8CodeUnitCount, valueStart, value.count, indexed)
        }

        package func add(_ name: String, _ value: String, indexed: Bool = true) {
            var name = name
            var value = value
            let start = name.withUTF8 { append(UnsafeRawBufferPointer($0)) }
            let valueStart = value.withUTF8 { append(UnsafeRawBufferPointer($0)) }
            field(start, valueStart - start, valueStart, used - valueStart, indexed)
        }

        /// Adds a field whose value is written in place by `write`, which gets room for `maximumLength`
        /// bytes and returns how many it wrote (a decimal number, a UUID's text).
        package func add(
            _ name: StaticString, maximumLength: Int, indexed: Bool = true,
            _ write: (UnsafeMutableBufferPointer<UInt8>) -> Int
        ) {
            let start = append(name)
            reserve(maximumLength)
            let written = write(UnsafeMutableBufferPointer(start: storage + used, count: maximumLength))
            let valueStart = used
            used += min(max(written, 0), maximumLength)
            field(start, name.utf8CodeUnitCount, valueStart, used - valueStart, indexed)
        }

        /// Calls `body` with nghttp2's name-value array for the fields added.
        package func withNameValues<Result>(_ body: (UnsafePointer<nghttp2_nv>, Int) -> Result) -> Result {
            if !nameValuesCurrent {
                nameValues.removeAll(keepingCapacity: true)
                for field in fields {
                    nameValues.append(
                        nghttp2_nv(
                            name: storage + field.name, value: storage + field.value, namelen: field.nameLength,
                            valuelen: field.valueLength, flags: field.flags))
                }
                nameValuesCurrent = true
            }
            return nameValues.withUnsafeBufferPointer { body($0.baseAddress!, $0.count) }
        }

        /// Whether a header name or value nghttp2 handed over is `text`.
        package static func equals(_ bytes: UnsafeBufferPointer<UInt8>, _ text: StaticString) -> Bool {
            guard bytes.count == text.utf8CodeUnitCount else { return false }
            guard let base = bytes.baseAddress else { return bytes.isEmpty }
            return memcmp(base, text.utf8Start, bytes.count) == 0
        }

        private func field(_ name: Int, _ nameLength: Int, _ value: Int, _ valueLength: Int, _ indexed: Bool) {
            let flags = indexed ? NGHTTP2_NV_FLAG_NONE.rawValue : NGHTTP2_NV_FLAG_NO_INDEX.rawValue
            fields.append(
                Field(name: name, nameLength: nameLength, value: value, valueLength: valueLength, flags: UInt8(flags)))
            nameValuesCurrent = false
        }

        private func append(_ text: StaticString) -> Int {
            append(UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
        }

        /// Copies `bytes` to the end of the storage; returns where they start.
        private func append(_ bytes: UnsafeRawBufferPointer) -> Int {
            reserve(bytes.count)
            let start = used
            if let base = bytes.baseAddress, bytes.count > 0 {
                (storage + used).update(from: base.assumingMemoryBound(to: UInt8.self), count: bytes.count)
            }
            used += bytes.count
            return start
        }

        /// Grows the storage (offsets, not pointers, are kept, so growing moves nothing that was handed out).
        private func reserve(_ extra: Int) {
            guard used + extra > capacity else { return }
            let grown = max(capacity * 2, used + extra)
            let moved = UnsafeMutablePointer<UInt8>.allocate(capacity: grown)
            moved.update(from: storage, count: used)
            storage.deallocate()
            storage = moved
            capacity = grown
        }
    }
#endif
