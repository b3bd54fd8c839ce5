/// Rows for `COPY … FROM STDIN (FORMAT binary)`, written into one buffer: PostgreSQL's binary copy format
/// (a signature, then per row its field count and each field as a length and its bytes, then -1). No text to
/// escape or to parse: integers and reals go as their eight bytes, text as its UTF-8.
struct PostgresCopyRows {
    private(set) var bytes: [UInt8] = []
    private let fields: Int16
    private(set) var count = 0

    init(fields: Int, reservingRows rows: Int = 0, bytesPerRow: Int = 64) {
        self.fields = Int16(fields)
        bytes.reserveCapacity(19 + rows * (2 + fields * 4 + bytesPerRow) + 2)
        bytes += Array("PGCOPY\n".utf8) + [0xFF, 0x0D, 0x0A, 0x00]
        append(UInt32(0))  // flags: no OIDs
        append(UInt32(0))  // no header extension
    }

    /// Starts a row; then exactly `fields` values follow.
    mutating func startRow() {
        append(UInt16(bitPattern: fields))
        count += 1
    }

    mutating func text(_ text: String) {
        var text = text
        text.withUTF8 { utf8 in
            append(UInt32(utf8.count))
            bytes += utf8
        }
    }

    mutating func bigint(_ value: Int64) {
        append(UInt32(8))
        append(UInt64(bitPattern: value))
    }

    mutating func double(_ value: Double) {
        append(UInt32(8))
        append(value.bitPattern)
    }

    mutating func bytea(_ value: [UInt8]) {
        append(UInt32(value.count))
        bytes += value
    }

    mutating func null() { append(UInt32(bitPattern: -1)) }

    /// Ends the copy data with its end marker; no row may follow.
    mutating func finish() { append(UInt16(0xFFFF)) }

    private mutating func append<Value: FixedWidthInteger>(_ value: Value) {
        withUnsafeBytes(of: value.bigEndian) { bytes += $0 }
    }
}
