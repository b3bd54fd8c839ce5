/// One line of `pushbutton send`'s NDJSON input: `{"token": "…", "payload": {…}, "id": "…", "topic": "…",
/// "environment": "…"}`, all but the token optional.
///
/// The line is read as bytes and checked by ``JSONParser`` whole: invalid UTF-8 anywhere makes it invalid
/// (it is never repaired into U+FFFD). The payload is then taken from the line as written, only with the
/// white space between tokens removed, never rebuilt from a parsed value: integers beyond `Int64` keep
/// every digit and numbers keep their spelling.
public struct SendLine: Sendable, Equatable {
    /// The device token, as written on the line (checked later, as a token from a flag is).
    public var token: String
    /// The payload as compact JSON, or `nil` when the line has none.
    public var payload: [UInt8]?
    /// The line's own `id`, echoed in its result.
    public var id: String?
    /// The line's own `apns-topic`, in place of the command line's.
    public var topic: String?
    /// The name of the environment (an app configuration's) the line goes to.
    public var environment: String?

    /// A line for `token`, with its payload, id, topic and environment when it has them.
    public init(token: String, payload: [UInt8]?, id: String? = nil, topic: String? = nil, environment: String? = nil) {
        self.token = token
        self.payload = payload
        self.id = id
        self.topic = topic
        self.environment = environment
    }

    /// Why a line is not a notification; `token` when the line had one.
    public struct Failure: Error, Sendable, Equatable {
        /// What is wrong with the line, in one sentence.
        public var message: String
        /// The line's device token, when it had one, so a report can name the device.
        public var token: String?
        /// Creates a failure saying `message` about the line for `token`.
        public init(_ message: String, token: String? = nil) {
            self.message = message
            self.token = token
        }
    }

    /// Reads a line's bytes (without the line break).
    public static func parse(_ bytes: [UInt8]) throws(Failure) -> SendLine {
        let value: JSONValue
        do {
            value = try JSONParser.parse(bytes)
        } catch {
            throw Failure("not valid JSON: \(error.message) at column \(error.location.column)")
        }
        guard let object = value.objectValue, let token = object["token"]?.stringValue else {
            throw Failure("not a JSON object with a \"token\" string")
        }
        let id = object["id"]?.stringValue
        if let value = object["id"], id == nil {
            throw Failure("\"id\" must be a string, not \(value.typeDescription)", token: token)
        }
        var routing: [String: String] = [:]
        for name in ["topic", "environment"] {
            guard let value = object[name] else { continue }
            guard let text = value.stringValue else {
                throw Failure("\"\(name)\" must be a string, not \(value.typeDescription)", token: token)
            }
            guard !text.isEmpty else { throw Failure("\"\(name)\" must not be empty", token: token) }
            routing[name] = text
        }
        guard object["payload"] != nil else {
            return SendLine(
                token: token, payload: nil, id: id, topic: routing["topic"], environment: routing["environment"])
        }
        var scanner = MemberScanner(bytes: bytes)
        guard let range = scanner.lastValue(named: "payload") else {
            throw Failure("the \"payload\" member could not be located")  // unreachable for a parsed object
        }
        return SendLine(
            token: token, payload: MemberScanner.compacted(bytes[range]), id: id, topic: routing["topic"],
            environment: routing["environment"])
    }
}

/// Finds where a top-level member's value is written in a JSON object the parser has already accepted
/// (so it needs no error handling of its own beyond not running past the end).
private struct MemberScanner {
    let bytes: [UInt8]
    var position = 0

    init(bytes: [UInt8]) {
        self.bytes = bytes
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { position = 3 }
    }

    /// The byte range of the value of the last member named `name` (the one the parser keeps).
    mutating func lastValue(named name: String) -> Range<Int>? {
        skipWhitespace()
        guard peek == 0x7B else { return nil }  // {
        position += 1
        var found: Range<Int>?
        while position < bytes.count {
            skipWhitespace()
            if peek == 0x7D { return found }  // }
            let keyStart = position
            skipString()
            let key = (try? JSONParser.parse(Array(bytes[keyStart..<position])))?.stringValue
            skipWhitespace()
            position += 1  // :
            skipWhitespace()
            let valueStart = position
            skipValue()
            if key == name { found = valueStart..<position }
            skipWhitespace()
            if peek == 0x2C { position += 1 } else { return found }  // ,
        }
        return found
    }

    private var peek: UInt8? { position < bytes.count ? bytes[position] : nil }

    private mutating func skipWhitespace() {
        while let byte = peek, byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { position += 1 }
    }

    private mutating func skipString() {
        position += 1  // the opening quote
        while let byte = peek {
            position += 1
            if byte == 0x5C {
                position += 1  // the escaped byte (a \u escape's hex digits are plain bytes)
            } else if byte == 0x22 {
                return
            }
        }
    }

    private mutating func skipValue() {
        guard let first = peek else { return }
        switch first {
        case 0x22: skipString()
        case 0x7B, 0x5B:
            var depth = 0
            while let byte = peek {
                switch byte {
                case 0x22:
                    skipString()
                    continue
                case 0x7B, 0x5B: depth += 1
                case 0x7D, 0x5D: depth -= 1
                default: break
                }
                position += 1
                if depth == 0 { return }
            }
        default:  // a number or a literal: up to the next delimiter
            while let byte = peek, byte != 0x2C, byte != 0x7D, byte != 0x5D, byte != 0x20, byte != 0x09,
                byte != 0x0A, byte != 0x0D
            {
                position += 1
            }
        }
    }

    /// `value` without the white space between its tokens (strings are copied as they are).
    static func compacted(_ value: ArraySlice<UInt8>) -> [UInt8] {
        var result: [UInt8] = []
        result.reserveCapacity(value.count)
        var inString = false
        var escaped = false
        for byte in value {
            if inString {
                result.append(byte)
                if escaped {
                    escaped = false
                } else if byte == 0x5C {
                    escaped = true
                } else if byte == 0x22 {
                    inString = false
                }
            } else if byte == 0x22 {
                inString = true
                result.append(byte)
            } else if byte != 0x20 && byte != 0x09 && byte != 0x0A && byte != 0x0D {
                result.append(byte)
            }
        }
        return result
    }
}
