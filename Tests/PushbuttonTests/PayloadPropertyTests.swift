import Foundation
import PushbuttonSupport
import Testing

@testable import Pushbutton

/// Writes random payloads (random Unicode included) and checks that two independent parsers,
/// Foundation's and Python's `json` module, read back exactly the value that was written.
@Suite(.timeLimit(.minutes(5))) struct PayloadPropertyTests {
    static let count = 2000

    static func randomPayloads() -> [Payload] {
        var random = SplitMix64(seed: 2026)
        return (0..<count).map { _ in RandomPayload.make(&random) }
    }

    @Test func foundationReadsBackTheSameValue() throws {
        for payload in Self.randomPayloads() {
            let bytes = PayloadWriter.encode(payload)
            let decoded = try JSONDecoder().decode(JSONValue.self, from: Data(bytes))
            #expect(
                RandomPayload.numericallyEqual(decoded, payload.jsonValue), "\(String(decoding: bytes, as: UTF8.self))")
            #expect(try JSONSerialization.jsonObject(with: Data(bytes)) is [String: Any])
        }
    }

    @Test func pythonReadsBackTheSameValue() throws {
        // Each line: our bytes, then Foundation's serialization of the same value, as a reference.
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "pb-property-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        var ours = Data()
        var reference = Data()
        for payload in Self.randomPayloads() {
            ours.append(contentsOf: PayloadWriter.encode(payload))
            ours.append(0x0A)
            reference.append(
                try JSONSerialization.data(withJSONObject: RandomPayload.foundationObject(payload.jsonValue)))
            reference.append(0x0A)
        }
        try ours.write(to: directory.appendingPathComponent("ours.ndjson"))
        try reference.write(to: directory.appendingPathComponent("reference.ndjson"))
        let script = """
            import json, sys
            ours = open(sys.argv[1], encoding="utf-8").read().split("\\n")[:-1]
            reference = open(sys.argv[2], encoding="utf-8").read().split("\\n")[:-1]
            assert len(ours) == len(reference) == \(Self.count), (len(ours), len(reference))
            for index, (a, b) in enumerate(zip(ours, reference)):
                if json.loads(a) != json.loads(b):
                    print("line", index, "differs:", a[:300]); sys.exit(1)
            print("python: %d payloads read back equal" % len(ours))
            """
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "python3", "-c", script, directory.appendingPathComponent("ours.ndjson").path,
            directory.appendingPathComponent("reference.ndjson").path,
        ]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let text = String(decoding: DescriptorReader.readToEnd(output.fileHandleForReading), as: UTF8.self)
        let exit = ProcessExit.wait(for: process)
        #expect(exit.status == 0 && !exit.signaled, "\(text)")
        #expect(text.contains("\(Self.count) payloads read back equal"))
    }
}

/// Random payloads for property tests.
enum RandomPayload {
    static func make(_ random: inout SplitMix64) -> Payload {
        var payload = Payload.interactive(
            category: string(&random, maxLength: 12), title: string(&random, maxLength: 30),
            body: string(&random, maxLength: 120))
        if random.next() % 2 == 0 { payload.aps.badge = Int(random.next() % 1000) }
        if random.next() % 3 == 0 { payload.aps.relevanceScore = Double(random.next() % 1_000_001) / 1_000_000 }
        if random.next() % 3 == 0 { payload.aps.threadID = string(&random, maxLength: 10) }
        if random.next() % 2 == 0 {
            payload.actionArguments = [
                string(&random, maxLength: 8): value(&random, depth: 2), "n": value(&random, depth: 0),
            ]
        }
        if random.next() % 2 == 0 {
            payload.addAction(
                ActionSpec(string(&random, maxLength: 10), arguments: ["k": value(&random, depth: 2)]),
                forButton: string(&random, maxLength: 6))
        }
        if random.next() % 2 == 0 { payload.custom[string(&random, maxLength: 8)] = value(&random, depth: 3) }
        return payload
    }

    /// Strings mixing ASCII, control characters, quotes, backslashes, BMP and astral characters.
    static func string(_ random: inout SplitMix64, maxLength: Int) -> String {
        var scalars = String.UnicodeScalarView()
        for _ in 0..<Int(random.next() % UInt64(maxLength + 1)) {
            let value: UInt32
            switch random.next() % 6 {
            case 0: value = UInt32(random.next() % 0x20)
            case 1: value = [0x22, 0x5C, 0x2F, 0x7F, 0x2028, 0x2029, 0xFEFF, 0xFFFD][Int(random.next() % 8)]
            case 2: value = 0x80 + UInt32(random.next() % 0x780)
            case 3: value = 0x800 + UInt32(random.next() % (0xD800 - 0x800))
            case 4: value = 0x10000 + UInt32(random.next() % 0x100000)
            default: value = 0x20 + UInt32(random.next() % 0x5F)
            }
            scalars.append(Unicode.Scalar(value) ?? "?")
        }
        return String(scalars)
    }

    static func value(_ random: inout SplitMix64, depth: Int) -> JSONValue {
        switch random.next() % (depth > 0 ? 8 : 6) {
        case 0: return .null
        case 1: return .bool(random.next() % 2 == 0)
        case 2: return .integer(Int64(bitPattern: random.next()) >> Int64(random.next() % 64))
        case 3:
            let double = Double(bitPattern: random.next())
            return double.isFinite ? .double(double) : .double(0.5)
        case 4: return .double(Double(Int64(random.next() % 2_000_000) - 1_000_000) / 1000)
        case 5: return .string(string(&random, maxLength: 20))
        case 6: return .array((0..<Int(random.next() % 4)).map { _ in value(&random, depth: depth - 1) })
        default:
            var object: [String: JSONValue] = [:]
            for _ in 0..<Int(random.next() % 4) {
                object[string(&random, maxLength: 6)] = value(&random, depth: depth - 1)
            }
            return .object(object)
        }
    }

    /// Foundation's decoder reads `1.0` as an integer; compare numbers by value.
    static func numericallyEqual(_ lhs: JSONValue, _ rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.array(let a), .array(let b)): return a.count == b.count && zip(a, b).allSatisfy(numericallyEqual)
        case (.object(let a), .object(let b)):
            return a.keys.sorted() == b.keys.sorted() && a.keys.allSatisfy { numericallyEqual(a[$0]!, b[$0]!) }
        default:
            if let x = lhs.doubleValue, let y = rhs.doubleValue {
                if case .integer(let i) = lhs, case .integer(let j) = rhs { return i == j }
                return x == y
            }
            return lhs == rhs
        }
    }

    static func foundationObject(_ value: JSONValue) -> Any {
        switch value {
        case .null: return NSNull()
        case .bool(let bool): return bool
        case .integer(let integer): return NSNumber(value: integer)
        case .double(let double): return NSNumber(value: double)
        case .string(let string): return string
        case .array(let array): return array.map(foundationObject)
        case .object(let object): return object.mapValues(foundationObject)
        }
    }
}
