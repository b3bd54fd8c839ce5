internal import CPostgreSQL

/// A statement's bound values as libpq takes them, all in one buffer: integers and reals in binary where the
/// parameter's type is an integer or a float (no printing, no parsing on the server), bytes in binary, the
/// rest as NUL-terminated text.
struct PostgresParameters {
    private(set) var bytes: [UInt8] = []
    /// Each value's start in ``bytes``, or -1 for NULL.
    private(set) var offsets: [Int] = []
    private(set) var lengths: [Int32] = []
    private(set) var formats: [Int32] = []

    init(_ values: [SQLValue], types: [UInt32]) {
        offsets.reserveCapacity(values.count)
        lengths.reserveCapacity(values.count)
        formats.reserveCapacity(values.count)
        bytes.reserveCapacity(values.count * 16)
        for (index, value) in values.enumerated() {
            append(value, type: index < types.count ? Int(types[index]) : 0)
        }
        // Never empty, so an empty value (an empty bytea) still has a pointer: nil would send NULL.
        bytes.append(0)
    }

    private mutating func append(_ value: SQLValue, type: Int) {
        let start = bytes.count
        var format: Int32 = 0
        switch value {
        case .null:
            offsets.append(-1)
            lengths.append(0)
            formats.append(0)
            return
        case .integer(let integer):
            switch type {
            case PUSHBUTTON_PG_INT8: appendBigEndian(UInt64(bitPattern: integer)); format = 1
            case PUSHBUTTON_PG_INT4 where Int32(exactly: integer) != nil:
                appendBigEndian(UInt32(bitPattern: Int32(integer))); format = 1
            case PUSHBUTTON_PG_INT2 where Int16(exactly: integer) != nil:
                appendBigEndian(UInt16(bitPattern: Int16(integer))); format = 1
            case PUSHBUTTON_PG_FLOAT8: appendBigEndian(Double(integer).bitPattern); format = 1
            case PUSHBUTTON_PG_BOOL where integer == 0 || integer == 1: bytes.append(UInt8(integer)); format = 1
            default: appendText(String(integer))
            }
        case .real(let real):
            switch type {
            case PUSHBUTTON_PG_FLOAT8: appendBigEndian(real.bitPattern); format = 1
            case PUSHBUTTON_PG_FLOAT4 where Double(Float(real)) == real:
                appendBigEndian(Float(real).bitPattern); format = 1
            default: appendText("\(real)")
            }
        case .text(let text): appendText(text)
        case .blob(let blob):
            bytes += blob
            format = 1
        }
        offsets.append(start)
        lengths.append(Int32(bytes.count - start - (format == 0 ? 1 : 0)))
        formats.append(format)
    }

    private mutating func appendText(_ text: String) {
        bytes += text.utf8
        bytes.append(0)
    }

    private mutating func appendBigEndian<Value: FixedWidthInteger>(_ value: Value) {
        withUnsafeBytes(of: value.bigEndian) { bytes += $0 }
    }

    /// Calls `body` with a pointer per value (nil for NULL) into the buffer, valid for the call only.
    func withPointers<Result>(_ body: ([UnsafePointer<CChar>?]) -> Result) -> Result {
        bytes.withUnsafeBufferPointer { buffer in
            let base = buffer.baseAddress.map { UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self) }
            let pointers: [UnsafePointer<CChar>?] = offsets.map { offset in
                guard offset >= 0, let base else { return nil }
                return base + offset
            }
            return body(pointers)
        }
    }
}
