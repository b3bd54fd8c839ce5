/// The growable byte buffer ``PayloadWriter`` writes into: bytes are stored through a pointer, each write
/// checks the room left once, not per byte, and a run of bytes is one `memcpy`.
///
/// It writes what ``JSONWriter`` writes in compact form, byte for byte (the same escaping, numbers and sorted
/// keys): `PayloadWriterJSONEncoderTests` and the payload tests compare the two. An `Array` would check its
/// uniqueness and capacity on every append, which cost about a fifth of writing a payload.
///
/// `@unchecked Sendable`: the memory belongs to `storage`, and it is written only after ``reset()`` has made
/// `storage` this buffer's own (a copy of the buffer then gets fresh memory at its next reset), so no memory
/// two buffers share is ever written.
struct JSONByteBuffer: @unchecked Sendable {
    /// Owns the memory; its fields never change, so reading them needs no exclusivity check.
    private final class Storage {
        let base: UnsafeMutablePointer<UInt8>
        let capacity: Int

        init(capacity: Int) {
            self.capacity = capacity
            base = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
            // Initialized once: a string's escape test reads the whole word at its end, past what was written.
            base.initialize(repeating: 0, count: capacity)
        }

        deinit { base.deallocate() }
    }

    private var storage: Storage
    private var base: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    /// How many bytes are written.
    private(set) var count = 0

    init(capacity: Int) {
        storage = Storage(capacity: Swift.max(capacity, 16))
        base = storage.base
        self.capacity = storage.capacity
    }

    /// The bytes written, in an array of their own.
    var bytes: [UInt8] { Array(UnsafeBufferPointer(start: base, count: count)) }

    /// Empties the buffer, keeping its memory when no copy of the buffer shares it.
    mutating func reset() {
        count = 0
        if !isKnownUniquelyReferenced(&storage) {
            storage = Storage(capacity: capacity)
            base = storage.base
        }
    }

    /// Makes room for `extra` more bytes.
    @inline(__always)
    private mutating func reserve(_ extra: Int) {
        if capacity - count < extra { grow(count + extra) }
    }

    private mutating func grow(_ needed: Int) {
        var newCapacity = capacity * 2
        while newCapacity < needed { newCapacity *= 2 }
        let larger = Storage(capacity: newCapacity)
        larger.base.update(from: base, count: count)
        storage = larger
        base = larger.base
        capacity = newCapacity
    }

    /// Appends one byte.
    @inline(__always)
    mutating func writeRaw(_ byte: UInt8) {
        reserve(1)
        base[count] = byte
        count += 1
    }

    /// Appends raw, already valid JSON text.
    @inline(__always)
    mutating func writeRaw(_ text: StaticString) {
        append(UnsafeRawPointer(text.utf8Start), text.utf8CodeUnitCount)
    }

    @inline(__always)
    private mutating func append(_ source: UnsafeRawPointer, _ length: Int) {
        reserve(length)
        UnsafeMutableRawPointer(base + count).copyMemory(from: source, byteCount: length)
        count += length
    }

    /// Writes any JSON value, compact.
    mutating func write(_ value: JSONValue) {
        switch value {
        case .null: writeRaw("null")
        case .bool(let bool): bool ? writeRaw("true") : writeRaw("false")
        case .integer(let integer): write(integer)
        case .double(let double): write(double)
        case .string(let string): write(string)
        case .array(let elements):
            writeRaw(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { writeRaw(UInt8(ascii: ",")) }
                write(element)
            }
            writeRaw(UInt8(ascii: "]"))
        case .object(let members): writeObject(members)
        }
    }

    /// Writes an integer in decimal.
    mutating func write(_ integer: Int64) {
        if integer >= 0 && integer < 10 {
            writeRaw(UInt8(ascii: "0") + UInt8(integer))
            return
        }
        reserve(20)  // "-9223372036854775808" is the longest
        var magnitude = integer.magnitude
        var digits = 0
        var rest = magnitude
        repeat {
            digits += 1
            rest /= 10
        } while rest > 0
        if integer < 0 {
            base[count] = UInt8(ascii: "-")
            count += 1
        }
        var index = count + digits
        count = index
        repeat {
            index -= 1
            base[index] = UInt8(ascii: "0") + UInt8(magnitude % 10)
            magnitude /= 10
        } while magnitude > 0
    }

    /// Writes a double in its shortest round-trip form, or `null` when it is not finite (as ``JSONWriter``).
    mutating func write(_ double: Double) {
        guard double.isFinite else {
            writeRaw("null")
            return
        }
        var text = double.description
        text.withUTF8 { append(UnsafeRawPointer($0.baseAddress!), $0.count) }
    }

    /// Writes a string with exact JSON escaping, in quotes.
    mutating func write(_ string: String) {
        if let done: Void = string.utf8.withContiguousStorageIfAvailable({ writeQuoted($0) }) { return done }
        var string = string
        string.withUTF8 { writeQuoted($0) }
    }

    /// `"text"`. Most text needs no escape: it is copied at once and tested as whole words; only text with a
    /// byte that may need one is written again, by ``writeEscaped(_:)``. Text of up to 16 bytes (keys, names,
    /// short values: most of a payload's strings) is moved in one or two overlapping words, tested in registers,
    /// without a call to `memcpy`.
    @inline(__always)
    private mutating func writeQuoted(_ utf8: UnsafeBufferPointer<UInt8>) {
        let length = utf8.count
        // Room for the quotes, and for reading a whole word at the text's last byte.
        reserve(length + 10)
        let start = base + count
        start.pointee = UInt8(ascii: "\"")
        let target = UnsafeMutableRawPointer(start + 1)
        var clean: Bool
        if length <= 16, let source = utf8.baseAddress.map(UnsafeRawPointer.init) {
            // Two words that together cover every byte (they overlap when the text is shorter than 16 bytes).
            let first: UInt64
            let last: UInt64
            if length >= 8 {
                first = source.loadUnaligned(as: UInt64.self)
                last = source.loadUnaligned(fromByteOffset: length - 8, as: UInt64.self)
                target.storeBytes(of: first, as: UInt64.self)
                target.storeBytes(of: last, toByteOffset: length - 8, as: UInt64.self)
            } else if length >= 4 {
                let low = source.loadUnaligned(as: UInt32.self)
                let high = source.loadUnaligned(fromByteOffset: length - 4, as: UInt32.self)
                target.storeBytes(of: low, as: UInt32.self)
                target.storeBytes(of: high, toByteOffset: length - 4, as: UInt32.self)
                first = UInt64(low) | UInt64(high) << 32
                last = first
            } else {
                // One to three bytes, in a word padded with 'A' (which needs no escape).
                var word: UInt64 = 0x4141_4141_4141_4141
                for index in 0..<length {
                    let byte = source.load(fromByteOffset: index, as: UInt8.self)
                    target.storeBytes(of: byte, toByteOffset: index, as: UInt8.self)
                    word = (word & ~(0xFF << (8 * UInt64(index)))) | UInt64(byte) << (8 * UInt64(index))
                }
                first = word
                last = word
            }
            clean =
                !JSONWriter.mayNeedEscape(UInt64(littleEndian: first))
                && !JSONWriter.mayNeedEscape(UInt64(littleEndian: last))
        } else {
            if let source = utf8.baseAddress { target.copyMemory(from: source, byteCount: length) }
            let text = UnsafeRawPointer(target)
            var index = 0
            clean = true
            while index + 8 <= length {
                if JSONWriter.mayNeedEscape(
                    UInt64(littleEndian: text.loadUnaligned(fromByteOffset: index, as: UInt64.self)))
                {
                    clean = false
                    break
                }
                index += 8
            }
            if clean && index < length {
                // The word's bytes past the text are not its own: they count as 'A', which needs no escape.
                let word = UInt64(littleEndian: text.loadUnaligned(fromByteOffset: index, as: UInt64.self))
                let own = UInt64.max >> (64 - 8 * UInt64(length - index))
                clean = !JSONWriter.mayNeedEscape((word & own) | (0x4141_4141_4141_4141 & ~own))
            }
        }
        if clean {
            start[length + 1] = UInt8(ascii: "\"")
            count += length + 2
            return
        }
        count += 1
        writeEscaped(utf8)
        writeRaw(UInt8(ascii: "\""))
    }

    /// Copies UTF-8 text, escaping what JSON requires; eight bytes are tested at a time for one to escape
    /// (``JSONWriter``'s test), and each run of bytes that need none is one copy.
    private mutating func writeEscaped(_ utf8: UnsafeBufferPointer<UInt8>) {
        guard let source = utf8.baseAddress else { return }
        let length = utf8.count
        var runStart = 0
        var index = 0
        while index < length {
            if index + 8 <= length {
                let word = UInt64(littleEndian: UnsafeRawPointer(source + index).loadUnaligned(as: UInt64.self))
                if !JSONWriter.mayNeedEscape(word) {
                    index += 8
                    continue
                }
            }
            if index + 8 > length {
                // The last bytes: copied into a word padded with 'A' (which needs no escape), tested at once.
                var tail: UInt64 = 0x4141_4141_4141_4141
                withUnsafeMutableBytes(of: &tail) {
                    $0.baseAddress!.copyMemory(from: source + index, byteCount: length - index)
                }
                if !JSONWriter.mayNeedEscape(UInt64(littleEndian: tail)) { break }
            }
            let end = Swift.min(index + 8, length)
            while index < end {
                let byte = source[index]
                if byte < 0x20 || byte == 0x22 || byte == 0x5C {
                    if runStart < index { append(source + runStart, index - runStart) }
                    writeEscape(for: byte)
                    runStart = index + 1
                }
                index += 1
            }
        }
        if runStart < length { append(source + runStart, length - runStart) }
    }

    private mutating func writeEscape(for byte: UInt8) {
        reserve(6)
        base[count] = UInt8(ascii: "\\")
        switch byte {
        case 0x22: base[count + 1] = UInt8(ascii: "\"")
        case 0x5C: base[count + 1] = UInt8(ascii: "\\")
        case 0x08: base[count + 1] = UInt8(ascii: "b")
        case 0x0C: base[count + 1] = UInt8(ascii: "f")
        case 0x0A: base[count + 1] = UInt8(ascii: "n")
        case 0x0D: base[count + 1] = UInt8(ascii: "r")
        case 0x09: base[count + 1] = UInt8(ascii: "t")
        default:
            let hex: StaticString = "0123456789abcdef"
            base[count + 1] = UInt8(ascii: "u")
            base[count + 2] = UInt8(ascii: "0")
            base[count + 3] = UInt8(ascii: "0")
            base[count + 4] = hex.utf8Start[Int(byte >> 4)]
            base[count + 5] = hex.utf8Start[Int(byte & 0x0F)]
            count += 6
            return
        }
        count += 2
    }

    /// An object (written directly, not wrapped in a ``JSONValue``), keys in sorted order: one member as it is,
    /// two by one comparison, more by ``JSONMemberOrder``.
    mutating func writeObject(_ members: [String: JSONValue]) {
        writeRaw(UInt8(ascii: "{"))
        if members.count == 1 {
            // Through the iterator, which reads the member where `first` validates an index first.
            var iterator = members.makeIterator()
            let (key, value) = iterator.next()!
            writeMember(key, value)
        } else if members.count == 2 {
            // The next most common case (`action_args` of an id and a user): one comparison, nothing copied aside.
            var iterator = members.makeIterator()
            let first = iterator.next()!
            let second = iterator.next()!
            let inOrder = first.key < second.key
            writeMember(inOrder ? first.key : second.key, inOrder ? first.value : second.value)
            writeRaw(UInt8(ascii: ","))
            writeMember(inOrder ? second.key : first.key, inOrder ? second.value : first.value)
        } else {
            JSONMemberOrder.forEach(members) { index, key, value in
                if index > 0 { writeRaw(UInt8(ascii: ",")) }
                writeMember(key, value)
            }
        }
        writeRaw(UInt8(ascii: "}"))
    }

    private mutating func writeMember(_ key: String, _ value: JSONValue) {
        write(key)
        writeRaw(UInt8(ascii: ":"))
        write(value)
    }
}
