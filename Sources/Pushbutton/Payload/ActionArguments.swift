/// An action's arguments: a JSON object's members, kept inline when there are one or two of them.
///
/// Most actions take one argument (`url`, `text`, `tag`) or two; a `Dictionary` for them costs a heap
/// allocation, hashing on every lookup and a sort when written. Up to two members are stored in the value
/// itself, keys in ascending order; three or more in a dictionary. Every value has exactly one form for its
/// members, so `==` and hashing are those of the members, as for the dictionary.
/// ``ActionSpec/arguments`` gives and takes the `[String: JSONValue]`.
public struct ActionArguments: Sendable, Hashable, ExpressibleByDictionaryLiteral, Codable {
    /// The members, in the one form their count gives.
    @usableFromInline
    enum Storage: Sendable, Hashable {
        case none
        case one(String, JSONValue)
        /// The first key sorts before the second.
        case two(String, JSONValue, String, JSONValue)
        /// Three or more members.
        case many([String: JSONValue])
    }

    /// The members, shared by copies: copying an action is then one retain, where copying the enum itself
    /// would go through its outlined copy and destroy on every array append and iteration (measured ~1.6k
    /// instructions a payload). `nil` when there are none.
    @usableFromInline
    final class Members: Sendable {
        @usableFromInline
        let storage: Storage

        @inlinable
        init(_ storage: Storage) { self.storage = storage }
    }

    @usableFromInline
    let members: Members?

    @usableFromInline
    var storage: Storage { members?.storage ?? .none }

    @inlinable
    init(storage: Storage) {
        if case .none = storage {
            members = nil
        } else {
            members = Members(storage)
        }
    }

    /// No arguments.
    @inlinable
    public init() { members = nil }

    /// The members of `dictionary`.
    public init(_ dictionary: [String: JSONValue]) {
        switch dictionary.count {
        case 0: self.init()
        case 1:
            let (key, value) = dictionary.first!
            self.init(storage: .one(key, value))
        case 2:
            var iterator = dictionary.makeIterator()
            let first = iterator.next()!
            let second = iterator.next()!
            self.init(storage: Self.pair(first.key, first.value, second.key, second.value))
        default: self.init(storage: .many(dictionary))
        }
    }

    /// The members of the literal; like a dictionary literal, two equal keys are a programming error.
    /// Inlined into the caller, where the literal's array can live on the stack.
    @inlinable @inline(__always)
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        switch elements.count {
        case 0: self.init()
        case 1: self.init(storage: .one(elements[0].0, elements[0].1))
        case 2:
            precondition(elements[0].0 != elements[1].0, "Dictionary literal contains duplicate keys")
            self.init(storage: Self.pair(elements[0].0, elements[0].1, elements[1].0, elements[1].1))
        default: self.init(storage: .many(Dictionary(uniqueKeysWithValues: elements)))
        }
    }

    /// Same members, whether or not they are shared.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        if lhs.members === rhs.members { return true }
        return lhs.storage == rhs.storage
    }

    /// The members' hash.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(storage)
    }

    /// Two members with distinct keys, in key order.
    @inlinable
    static func pair(_ key: String, _ value: JSONValue, _ otherKey: String, _ otherValue: JSONValue) -> Storage {
        key < otherKey ? .two(key, value, otherKey, otherValue) : .two(otherKey, otherValue, key, value)
    }

    /// The members as a dictionary.
    public var dictionary: [String: JSONValue] {
        guard let members else { return [:] }
        switch members.storage {
        case .none: return [:]
        case .one(let key, let value): return [key: value]
        case .two(let key, let value, let otherKey, let otherValue): return [key: value, otherKey: otherValue]
        case .many(let dictionary): return dictionary
        }
    }

    /// How many members there are.
    public var count: Int {
        guard let members else { return 0 }
        switch members.storage {
        case .none: return 0
        case .one: return 1
        case .two: return 2
        case .many(let dictionary): return dictionary.count
        }
    }

    /// Whether there are no members.
    public var isEmpty: Bool {
        members == nil
    }

    /// The value for `key`, if there is one. Inline members are compared, not hashed (the subscript's answer:
    /// both compare keys with `==`).
    public subscript(key: String) -> JSONValue? {
        guard let members else { return nil }
        switch members.storage {
        case .none: return nil
        case .one(let candidate, let value): return candidate == key ? value : nil
        case .two(let first, let value, let second, let otherValue):
            if first == key { return value }
            return second == key ? otherValue : nil
        case .many(let dictionary): return dictionary.scannedValue(forKey: key)
        }
    }

    /// Calls `body` with each member; inline ones in key order, a dictionary's in its own order.
    func forEach(_ body: (String, JSONValue) throws -> Void) rethrows {
        guard let members else { return }
        switch members.storage {
        case .none: return
        case .one(let key, let value): try body(key, value)
        case .two(let key, let value, let otherKey, let otherValue):
            try body(key, value)
            try body(otherKey, otherValue)
        case .many(let dictionary): for (key, value) in dictionary { try body(key, value) }
        }
    }

    /// Decodes a JSON object.
    public init(from decoder: any Decoder) throws {
        self.init(try [String: JSONValue](from: decoder))
    }

    /// Encodes a JSON object, as the dictionary would.
    public func encode(to encoder: any Encoder) throws {
        try dictionary.encode(to: encoder)
    }
}
