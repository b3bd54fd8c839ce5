/// Splits a byte stream, read in chunks of any size, into lines: the reading half of NDJSON.
///
/// A line ends at `\n`; a `\r` before it (CRLF files) is dropped, and a last line without a line break
/// counts too. Bytes are passed on as they are, never decoded (so invalid UTF-8 reaches the JSON parser,
/// which reports it, instead of being repaired here). A line longer than ``maximumLength`` is not
/// buffered: it is reported as ``Line/tooLong(length:)`` and its bytes are skipped, so no input can make
/// the reader hold more than one bounded line.
public struct LineSplitter: Sendable {
    /// One line of the input.
    public enum Line: Equatable, Sendable {
        /// A line, without its line break.
        case text([UInt8])
        /// A line over the limit, which was skipped; `length` is its length without the line break.
        case tooLong(length: Int)

        /// How many bytes the line had, without its line break (for progress over a file's size).
        public var byteCount: Int {
            switch self {
            case .text(let bytes): return bytes.count
            case .tooLong(let length): return length
            }
        }
    }

    /// The longest line kept, in bytes.
    public let maximumLength: Int
    private var pending: [UInt8] = []
    /// The length so far of a line being skipped for being too long.
    private var skipped: Int?

    /// 1 MiB by default: an NDJSON line is one notification, and APNs payloads are at most 5 KB.
    public init(maximumLength: Int = 1 << 20) {
        self.maximumLength = Swift.max(1, maximumLength)
    }

    /// Splits the next chunk, calling `body` with each line it completes.
    public mutating func feed<Bytes: Collection<UInt8>>(_ chunk: Bytes, _ body: (Line) throws -> Void) rethrows
    where Bytes.Index == Int {
        // Across the module boundary this generic is not specialised: searching `Bytes` element by element
        // through its witnesses boxed every byte (about 80 allocations per token line in a bulk send).
        // Contiguous chunks, which every reader passes, are split as a buffer instead.
        if try chunk.withContiguousStorageIfAvailable({ try feed(buffer: $0, body) }) != nil { return }
        var start = chunk.startIndex
        while start < chunk.endIndex {
            let newline = chunk[start...].firstIndex(of: 0x0A)
            let end = newline ?? chunk.endIndex
            take(chunk[start..<end])
            guard newline != nil else { return }
            try emit(body)
            start = end + 1
        }
    }

    private mutating func feed(buffer chunk: UnsafeBufferPointer<UInt8>, _ body: (Line) throws -> Void) rethrows {
        var start = 0
        while start < chunk.count {
            let newline = chunk[start...].firstIndex(of: 0x0A)
            let end = newline ?? chunk.count
            take(UnsafeBufferPointer(rebasing: chunk[start..<end]))
            guard newline != nil else { return }
            try emit(body)
            start = end + 1
        }
    }

    /// Where the lines of an input held whole in memory are, split by the same rule as ``feed(_:_:)`` and
    /// ``finish(_:)`` (at `\n`, a `\r` before it dropped, a last line without a line break kept), as ranges
    /// of `bytes` rather than a copy of each line. No length limit: the caller has bounded the input.
    public static func lineRanges(in bytes: UnsafeBufferPointer<UInt8>) -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        var start = 0
        while start < bytes.count {
            let newline = bytes[start...].firstIndex(of: 0x0A)
            var end = newline ?? bytes.count
            if end > start, bytes[end - 1] == 0x0D { end -= 1 }
            ranges.append(start..<end)
            guard let newline else { break }
            start = newline + 1
        }
        return ranges
    }

    /// Ends the input: a last line without a line break is passed on.
    public mutating func finish(_ body: (Line) throws -> Void) rethrows {
        if !pending.isEmpty || skipped != nil { try emit(body) }
    }

    private mutating func take(_ bytes: some Collection<UInt8>) {
        if let length = skipped {
            skipped = length + bytes.count
        } else if pending.count + bytes.count > maximumLength + 1 {  // + 1: a CR that may be dropped
            skipped = pending.count + bytes.count
            pending.removeAll(keepingCapacity: false)
        } else {
            pending.append(contentsOf: bytes)
        }
    }

    private mutating func emit(_ body: (Line) throws -> Void) rethrows {
        defer {
            pending.removeAll(keepingCapacity: pending.count <= 65536)
            skipped = nil
        }
        if let length = skipped {
            return try body(.tooLong(length: length))
        }
        if pending.last == 0x0D { pending.removeLast() }
        if pending.count > maximumLength { return try body(.tooLong(length: pending.count)) }
        try body(.text(pending))
    }
}
