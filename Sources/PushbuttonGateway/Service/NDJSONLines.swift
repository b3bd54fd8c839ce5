/// The lines of an NDJSON body, as slices of it (no copy), numbered from 1; a trailing `\r` is dropped.
struct NDJSONLines: Sequence {
    let bytes: [UInt8]

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// The number of the first line that is not blank (the campaign's definition).
    var firstLineNumber: Int { first { !$0.text.isEmpty }?.line ?? 0 }

    struct Iterator: IteratorProtocol {
        let bytes: [UInt8]
        var start = 0
        var line = 0

        mutating func next() -> (text: ArraySlice<UInt8>, line: Int)? {
            guard start < bytes.count else { return nil }
            line += 1
            var end = start
            while end < bytes.count && bytes[end] != 0x0A { end += 1 }
            var slice = bytes[start..<end]
            start = end + 1
            if slice.last == 0x0D { slice = slice.dropLast() }
            while let first = slice.first, first == 0x20 || first == 0x09 { slice = slice.dropFirst() }
            return (slice, line)
        }
    }

    func makeIterator() -> Iterator { Iterator(bytes: bytes) }
}
