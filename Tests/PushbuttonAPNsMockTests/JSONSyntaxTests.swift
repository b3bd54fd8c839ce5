import Foundation
import Pushbutton
import PushbuttonAPNs
import PushbuttonSupport
import Testing

@testable import PushbuttonAPNsMock

/// The mock's allocation-free JSON check agrees with the model's parser on what is a JSON object.
@Suite struct JSONSyntaxTests {
    static func parserSaysObject(_ bytes: [UInt8]) -> Bool {
        if case .object = try? JSONParser.parse(bytes) { return true }
        return false
    }

    @Test(arguments: [
        #"{}"#, #"{"aps":{"alert":"hi","badge":1,"sound":null,"x":[true,false,-1.5e3,0]}}"#, "\u{FEFF}{}",
        #" {"a":"\u00e9\ud83d\ude00"} "#, #"{"a":"é😀"}"#, #"{"a":1e400}"#, #"{"a":01}"#, #"{"a":"\ud800"}"#,
        #"{"a":"\udc00"}"#, #"{"a":"\x"}"#, #"{"a":1,}"#, #"[1]"#, #""s""#, #"{"a" 1}"#, #"{"a":tru}"#,
        "{\"a\":\"\u{01}\"}",
        #"{"a":-}"#, #"{"a":1.}"#, #"{"a":1e}"#, #"{} {}"#, "", #"{"a":[1,2,]}"#, #"{"a":12345678901234567890123}"#,
    ])
    func agreesOnHandPickedDocuments(_ text: String) {
        let bytes = Array(text.utf8)
        #expect(JSONSyntax.isObject(bytes) == Self.parserSaysObject(bytes), "\(text)")
    }

    @Test func agreesOnInvalidUTF8() {
        for bytes: [UInt8] in [
            [0x7B, 0x22, 0x61, 0x22, 0x3A, 0x22, 0xC0, 0xAF, 0x22, 0x7D],  // overlong
            [0x7B, 0x22, 0x61, 0x22, 0x3A, 0x22, 0xED, 0xA0, 0x80, 0x22, 0x7D],  // a surrogate in UTF-8
            [0x7B, 0x22, 0x61, 0x22, 0x3A, 0x22, 0xF4, 0x90, 0x80, 0x80, 0x22, 0x7D],  // above U+10FFFF
            [0x7B, 0x22, 0x61, 0x22, 0x3A, 0x22, 0xE2, 0x82, 0x22, 0x7D],  // truncated
        ] {
            #expect(JSONSyntax.isObject(bytes) == Self.parserSaysObject(bytes))
        }
    }

    /// Thousands of payloads with random bytes changed, inserted or cut.
    @Test func agreesOnMutatedPayloads() throws {
        let seeds = try ["message.json", "dynamic.json", "friend-request.json", "broken.json"].map { name in
            Array(try Data(contentsOf: ExternalTool.packageRoot.appendingPathComponent("Examples/payloads/" + name)))
        }
        var random = SplitMix64(seed: 7)
        let alphabet = Array(#"{}[]":,\-+.eE0123456789 tfnu"#.utf8) + [0x00, 0x1F, 0x80, 0xC3, 0xE2, 0xED, 0xF0, 0xFF]
        var disagreements: [String] = []
        for round in 0..<4000 {
            var bytes = seeds[round % seeds.count]
            for _ in 0..<(1 + Int(random.next() % 3)) {
                let position = Int(random.next() % UInt64(bytes.count))
                switch random.next() % 4 {
                case 0: bytes[position] = alphabet[Int(random.next() % UInt64(alphabet.count))]
                case 1: bytes.insert(alphabet[Int(random.next() % UInt64(alphabet.count))], at: position)
                case 2: bytes.remove(at: position)
                default: bytes = Array(bytes[..<position])
                }
                if bytes.isEmpty { break }
            }
            if JSONSyntax.isObject(bytes) != Self.parserSaysObject(bytes) {
                disagreements.append(String(decoding: bytes, as: UTF8.self))
            }
        }
        #expect(disagreements.isEmpty, "\(disagreements.prefix(3))")
    }
}
