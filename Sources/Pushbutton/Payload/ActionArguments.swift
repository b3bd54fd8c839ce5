/// An action's arguments: a JSON object's members, kept as plain fields when there are one or two of them.
///
/// Most actions take one argument (`url`, `text`, `tag`) or two; a `Dictionary` for them costs hashing on
/// insertion and lookups, a larger allocation and a sort when written. Up to two members are kept as fields of
/// one small shared object, keys in ascending order; three or more in a dictionary. `==` and hashing are the
/// members', as for the dictionary.
/// ``ActionSpec/arguments`` gives and takes the `[String: JSONValue]`.
public struct ActionArguments: Sendable, Hashable, ExpressibleByDictionaryLiteral, Codable {
    /// The members, shared by copies: copying an action is then one retain (an enum of the forms went through
    /// its outlined copy and destroy on every array append, iteration and read). Fields, not an enum, so a
    /// read takes one member without copying the others.
    @usableFromInline
    final class Members: Sendable {
        /// 1, 2, or more (then every member is in `dictionary`).
        @usableFromInline let count: Int
        @usableFromInline let firstKey: String
        @usableFromInline let firstValue: JSONValue
        /// Sorts after `firstKey`; empty, with a null value, for one member.
        @usableFromInline let secondKey: String
        @usableFromInline let secondValue: JSONValue
        /// Every member when there are three or more; empty otherwise.
        @usableFromInline let dictionary: [String: JSONValue]

        @inlinable
        init(_ key: String, _ value: JSONValue) {
            (count, firstKey, firstValue, secondKey, secondValue, dictionary) = (1, key, value, "", .null, [:])
        }

        /// Two members with distinct keys, put in key order.
        @inlinable
        init(_ key: String, _ value: JSONValue, _ otherKey: String, _ otherValue: JSONValue) {
            count = 2
            dictionary = [:]
            if key < otherKey {
                (firstKey, firstValue, secondKey, secondValue) = (key, value, otherKey, otherValue)
            } else {
                (firstKey, firstValue, secondKey, secondValue) = (otherKey, otherValue, key, value)
            }
        }

        @usableFromInline
        init(many dictionary: [String: JSONValue]) {
            (count, firstKey, firstValue, secondKey, secondValue) = (dictionary.count, "", .null, "", .null)
            self.dictionary = dictionary
        }
    }

    /// `nil` when there are no members.
    @usableFromInline
    let members: Members?

    /// No arguments.
    @inlinable
    public init() { members = nil }

    /// The members of `dictionary`.
    public init(_ dictionary: [String: JSONValue]) {
        switch dictionary.count {
        case 0: members = nil
        case 1:
            let (key, value) = dictionary.first!
            members = Members(key, value)
        case 2:
            var iterator = dictionary.makeIterator()
            let first = iterator.next()!
            let second = iterator.next()!
            members = Members(first.key, first.value, second.key, second.value)
        default: members = Members(many: dictionary)
        }
    }

    /// The members of the literal; like a dictionary literal, two equal keys are a programming error. Inlined
    /// into the caller, where the literal's array can live on the stack.
    @inlinable @inline(__always)
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        switch elements.count {
        case 0: members = nil
        case 1: members = Members(elements[0].0, elements[0].1)
        case 2:
            precondition(elements[0].0 != elements[1].0, "Dictionary literal contains duplicate keys")
            members = Members(elements[0].0, elements[0].1, elements[1].0, elements[1].1)
        default: members = Members(many: Dictionary(uniqueKeysWithValues: elements))
        }
    }

    /// Same members, whether or not they are shared.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        guard let left = lhs.members, let right = rhs.members else { return lhs.members == nil && rhs.members == nil }
        if left === right { return true }
        guard left.count == right.count else { return false }
        switch left.count {
        case 1: return left.firstKey == right.firstKey && left.firstValue == right.firstValue
        case 2:
            return left.firstKey == right.firstKey && left.firstValue == right.firstValue
                && left.secondKey == right.secondKey && left.secondValue == right.secondValue
        default: return left.dictionary == right.dictionary
        }
    }

    /// The members' hash.
    public func hash(into hasher: inout Hasher) {
        guard let members else { return hasher.combine(0) }
        hasher.combine(members.count)
        switch members.count {
        case 1:
            hasher.combine(members.firstKey)
            hasher.combine(members.firstValue)
        case 2:
            hasher.combine(members.firstKey)
            hasher.combine(members.firstValue)
            hasher.combine(members.secondKey)
            hasher.combine(members.secondValue)
        default: hasher.combine(members.dictionary)
        }
    }

    /// The members as a dictionary.
    public var dictionary: [String: JSONValue] {
        guard let members else { return [:] }
        switch members.count {
        case 1: return [members.firstKey: members.firstValue]
        case 2: return [members.firstKey: members.firstValue, members.secondKey: members.secondValue]
        default: return members.dictionary
        }
    }

    /// How many members there are.
    public var count: Int { members?.count ?? 0 }

    /// Whether there are no members.
    public var isEmpty: Bool { members == nil }

    /// The value for `key`, if there is one. Inline members are compared, not hashed (the subscript's answer:
    /// both compare keys with `==`).
    public subscript(key: String) -> JSONValue? {
        guard let members else { return nil }
        switch members.count {
        // No `? value : nil`: JSONValue takes `nil` as its literal, and the ternary would give `.null`.
        case 1:
            if members.firstKey == key { return members.firstValue }
            return Optional.none
        case 2:
            if members.firstKey == key { return members.firstValue }
            if members.secondKey == key { return members.secondValue }
            return Optional.none
        default: return members.dictionary.scannedValue(forKey: key)
        }
    }

    /// Calls `body` with each member; inline ones in key order, a dictionary's in its own order.
    func forEach(_ body: (String, JSONValue) throws -> Void) rethrows {
        guard let members else { return }
        switch members.count {
        case 1: try body(members.firstKey, members.firstValue)
        case 2:
            try body(members.firstKey, members.firstValue)
            try body(members.secondKey, members.secondValue)
        default: for (key, value) in members.dictionary { try body(key, value) }
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
