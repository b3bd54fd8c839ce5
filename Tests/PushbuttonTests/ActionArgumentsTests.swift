import Foundation
import Testing

@testable import Pushbutton

/// `ActionArguments` (one or two members as fields, more in a dictionary) against the dictionary it stands for:
/// the same members, `==`, hashing, JSON bytes and Codable form, for 0, 1, 2 and 3+ members.
@Suite struct ActionArgumentsTests {
    /// Dictionaries of every size the storage distinguishes, with keys given in and out of sorted order.
    static let dictionaries: [[String: JSONValue]] = [
        [:],
        ["url": "https://api.example.com/like"],
        ["text": .integer(7)],
        ["url": "chatter://message/1", "method": "POST"],
        ["a": .bool(true), "b": .null],
        ["z": .double(1.5), "a": .array([.integer(1)])],
        ["url": "https://api.example.com/", "method": "PUT", "include_reply": .bool(true)],
        [
            "url": "https://api.example.com/", "method": "PUT", "include_reply": .bool(false),
            "body": .object(["id": .integer(42)]),
        ],
    ]

    @Test(arguments: dictionaries)
    func holdsTheDictionarysMembers(_ dictionary: [String: JSONValue]) {
        let arguments = ActionArguments(dictionary)
        #expect(arguments.dictionary == dictionary)
        #expect(arguments.count == dictionary.count)
        #expect(arguments.isEmpty == dictionary.isEmpty)
        for (key, value) in dictionary { #expect(arguments[key] == value) }
        #expect(arguments["missing"] == nil)
        #expect(arguments[""] == nil)  // one member leaves the second key empty: it is not a member
        var seen: [String: JSONValue] = [:]
        arguments.forEach { key, value in seen[key] = value }
        #expect(seen == dictionary)
    }

    @Test func literalsOfEverySizeEqualTheDictionaryForm() {
        let literals: [(ActionArguments, [String: JSONValue])] = [
            ([:], [:]),
            (["url": "chatter://x"], ["url": "chatter://x"]),
            (["url": "chatter://x", "method": "GET"], ["url": "chatter://x", "method": "GET"]),
            (["method": "GET", "url": "chatter://x"], ["url": "chatter://x", "method": "GET"]),
            (["a": 1, "b": 2, "c": 3], ["c": 3, "b": 2, "a": 1]),
        ]
        for (literal, dictionary) in literals {
            #expect(literal == ActionArguments(dictionary))
            #expect(literal.hashValue == ActionArguments(dictionary).hashValue)
            #expect(literal.dictionary == dictionary)
        }
    }

    @Test(arguments: dictionaries)
    func actionsEqualAndHashAsTheirDictionaryForm(_ dictionary: [String: JSONValue]) {
        let fromDictionary = ActionSpec(ActionSpec.callback, arguments: dictionary)
        // Members added one by one, through the dictionary property, in reverse key order.
        var oneByOne = ActionSpec(ActionSpec.callback)
        for key in dictionary.keys.sorted(by: >) { oneByOne.arguments[key] = dictionary[key] }
        #expect(oneByOne == fromDictionary)
        #expect(oneByOne.hashValue == fromDictionary.hashValue)
        #expect(Set([oneByOne, fromDictionary]).count == 1)
        #expect(fromDictionary.arguments == dictionary)
        // A different value or an extra member is a different action.
        var changed = fromDictionary
        changed.arguments["url"] = "https://other.example.com/"
        #expect(changed != fromDictionary)
        var extra = fromDictionary
        extra.arguments["extra"] = .integer(1)
        #expect(extra != fromDictionary)
        #expect(extra.arguments.count == dictionary.count + 1)
    }

    @Test func differentMembersOfTheSameCountAreUnequal() {
        let pairs: [(ActionArguments, ActionArguments)] = [
            ([:], ["a": 1]),
            (["a": 1], ["a": 2]),
            (["a": 1], ["b": 1]),
            (["a": 1, "b": 2], ["a": 1, "b": 3]),
            (["a": 1, "b": 2], ["a": 1, "c": 2]),
            (["a": 1, "b": 2, "c": 3], ["a": 1, "b": 2, "c": 4]),
            (["a": 1, "b": 2], ["a": 1, "b": 2, "c": 3]),
        ]
        for (left, right) in pairs {
            #expect(left != right)
            #expect(right != left)
        }
    }

    @Test(arguments: dictionaries)
    func codableRoundTripKeepsTheMembers(_ dictionary: [String: JSONValue]) throws {
        let arguments = ActionArguments(dictionary)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let encoded = try encoder.encode(arguments)
        #expect(encoded == (try encoder.encode(dictionary)))
        #expect(try JSONDecoder().decode(ActionArguments.self, from: encoded) == arguments)
    }

    @Test(arguments: dictionaries)
    func payloadBytesAreTheDictionarysAndReadBack(_ dictionary: [String: JSONValue]) throws {
        var payload = Payload.interactive(category: "message", title: "T", body: "B")
        payload.addAction(ActionSpec("app.action", arguments: dictionary), forButton: "like")
        payload.addBodyAction(ActionSpec("app.body", arguments: ActionArguments(dictionary)))
        let bytes = PayloadWriter.encode(payload)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        #expect(bytes == Array(try encoder.encode(payload.jsonValue)))
        let read = try #require(Payload.parse(bytes).payload)
        #expect(read.actions?.body.first?.arguments == dictionary)
        #expect(read.actions?.buttons["like"]?.first == ActionSpec("app.action", arguments: dictionary))
    }
}
