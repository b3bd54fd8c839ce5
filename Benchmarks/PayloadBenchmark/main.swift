// Payload benchmark: builds N personalized interactive payloads (distinct titles, bodies, arguments)
// and either writes and validates them with Pushbutton, or encodes the same content with Foundation's
// JSONEncoder and Codable structs (what the Swift APNs library does). Run one mode per process so the
// peak memory is that mode's own: `PayloadBenchmark ours 1000000`, `PayloadBenchmark jsonencoder 1000000`
// (sorted keys, slashes unescaped: the same bytes as ours), `PayloadBenchmark jsonencoder-default 1000000`
// (JSONEncoder as APNSwift configures it: its default output, other key order and `\/`),
// `PayloadBenchmark template 1000000` (the same payloads from a PayloadTemplate validated once),
// `PayloadBenchmark verify 10000` (checks the outputs are byte for byte the same).
//
// Ours does what `pushbutton send` does before it sends a typed payload: write it, then validate it against
// the manifest with the send's context (an alert push at priority 10) and the written size.
import Foundation
import Pushbutton

#if canImport(Glibc)
    import Glibc
#endif

/// The same payload content as Codable structs, as an APNSwift user would write it.
struct CodablePayload: Encodable {
    struct APS: Encodable {
        struct Alert: Encodable {
            var title: String
            var body: String
        }
        var alert: Alert
        var category: String
        var threadID: String
        enum CodingKeys: String, CodingKey {
            case alert, category
            case threadID = "thread-id"
        }
    }
    struct Spec: Encodable {
        var action: String
        var args: [String: String]
    }
    struct Actions: Encodable {
        var v: Int
        var buttons: [String: [Spec]]
        var body: [Spec]
    }
    struct Arguments: Encodable {
        var id: Int
        var user: String
    }
    var aps: APS
    var pushbutton: Actions
    var actionArgs: Arguments
    enum CodingKeys: String, CodingKey {
        case aps, pushbutton
        case actionArgs = "action_args"
    }
}

/// The personalized strings of one notification. Both modes build them the same way, each in one piece of
/// the right size (`+` and string interpolation build and copy partial strings, which cost about a fifth of
/// ours), so this shared cost is as small as it can be and what is measured is the payload work.
struct Personalization {
    let index: Int
    let title: String
    let body: String
    let thread: String
    let likeURL: String
    let deepLink: String
    let user: String

    init(_ index: Int) {
        self.index = index
        title = Self.text("Anna ", index)
        body = Self.text("Message ", index, ": lunch at ", index % 24, ":00 tomorrow?")
        thread = Self.text("chat-", index % 1000)
        likeURL = Self.text("https://api.example.com/messages/", index, "/like")
        deepLink = Self.text("chatter://message/", index)
        user = Self.text("user-", index)
    }

    /// `head`, `first` in decimal, `middle`, `second` in decimal (when given) and `tail`, as one string made at
    /// its final size (up to 15 bytes it is a small string, stored inline).
    static func text(
        _ head: StaticString, _ first: Int, _ middle: StaticString = "", _ second: Int? = nil,
        _ tail: StaticString = ""
    ) -> String {
        let length =
            head.utf8CodeUnitCount + digits(first) + middle.utf8CodeUnitCount + (second.map(digits) ?? 0)
            + tail.utf8CodeUnitCount
        return String(unsafeUninitializedCapacity: length) { buffer in
            var end = 0
            func put(_ text: StaticString) {
                (buffer.baseAddress! + end).update(from: text.utf8Start, count: text.utf8CodeUnitCount)
                end += text.utf8CodeUnitCount
            }
            func put(_ number: Int) {
                var rest = number
                end += digits(number)
                var index = end
                repeat {
                    index -= 1
                    buffer[index] = UInt8(ascii: "0") + UInt8(rest % 10)
                    rest /= 10
                } while rest > 0
            }
            put(head)
            put(first)
            put(middle)
            if let second { put(second) }
            put(tail)
            return end
        }
    }

    /// How many decimal digits a number of zero or more has.
    static func digits(_ number: Int) -> Int {
        var count = 1
        var rest = number / 10
        while rest > 0 {
            count += 1
            rest /= 10
        }
        return count
    }
}

func makePayload(_ fields: Personalization) -> Payload {
    var payload = Payload.interactive(category: "message", title: fields.title, body: fields.body)
    payload.aps.threadID = fields.thread
    payload.addAction(ActionSpec(ActionSpec.callback, arguments: ["url": .string(fields.likeURL)]), forButton: "like")
    payload.addBodyAction(ActionSpec(ActionSpec.deepLink, arguments: ["url": .string(fields.deepLink)]))
    payload.actionArguments = ["id": .integer(Int64(fields.index)), "user": .string(fields.user)]
    return payload
}

func makeCodable(_ fields: Personalization) -> CodablePayload {
    CodablePayload(
        aps: .init(alert: .init(title: fields.title, body: fields.body), category: "message", threadID: fields.thread),
        pushbutton: .init(
            v: 1, buttons: ["like": [.init(action: ActionSpec.callback, args: ["url": fields.likeURL])]],
            body: [.init(action: ActionSpec.deepLink, args: ["url": fields.deepLink])]),
        actionArgs: .init(id: fields.index, user: fields.user))
}

/// The campaign as a template: validated once, then rendered per recipient.
func makeTemplate(_ validator: PayloadValidator) -> (PayloadTemplate, (Personalization) -> [JSONValue]) {
    var payload = Payload.interactive(category: "message", title: "{{title}}", body: "{{body}}")
    payload.aps.threadID = "{{thread}}"
    payload.addAction(
        ActionSpec(ActionSpec.callback, arguments: ["url": "https://api.example.com/messages/{{id}}/like"]),
        forButton: "like")
    payload.addBodyAction(ActionSpec(ActionSpec.deepLink, arguments: ["url": "chatter://message/{{id}}"]))
    payload.actionArguments = ["id": "{{id}}", "user": "{{user}}"]
    let template = try! PayloadTemplate(payload, validator: validator)
    let order = template.placeholders
    let position = ["id", "title", "body", "thread", "user"].map { order.firstIndex(of: $0)! }
    return (
        template,
        { fields in
            var values = [JSONValue](repeating: .null, count: 5)
            values[position[0]] = .integer(Int64(fields.index))
            values[position[1]] = .string(fields.title)
            values[position[2]] = .string(fields.body)
            values[position[3]] = .string(fields.thread)
            values[position[4]] = .string(fields.user)
            return values
        }
    )
}

func peakMemoryKiB() -> Int {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return usage.ru_maxrss
}

/// User plus system CPU seconds of this process so far: on a machine shared with other work the wall time
/// counts the waits for a core, the CPU time only this process's work.
func cpuSeconds() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    let user = Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
    return user + Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
}

/// JSONEncoder writing the same bytes as PayloadWriter: sorted keys, `/` not escaped.
func sameBytesEncoder() -> JSONEncoder {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return encoder
}

/// The context `pushbutton send` validates with: an alert push at priority 10.
let sendContext = PayloadValidator.Context(pushType: .alert, priority: 10)

/// Times `body` over `count` iterations and prints the mode's line.
func measure(_ mode: String, _ body: () -> Int) {
    let startCPU = cpuSeconds()
    let start = ContinuousClock.now
    let totalBytes = body()
    let seconds = (ContinuousClock.now - start) / .seconds(1)
    let cpu = cpuSeconds() - startCPU
    print("mode=\(mode) count=\(count) seconds=\(seconds) cpu=\(cpu) bytes=\(totalBytes) peak_kib=\(peakMemoryKiB())")
}

let manifestJSON = #"""
    {"version": 1, "categories": [{"identifier": "message", "actions": [
      {"identifier": "like", "title": "Like", "options": ["authenticationRequired"]},
      {"identifier": "reply", "title": "Reply", "textInput": {"buttonTitle": "Send"}}]}]}
    """#

let arguments = CommandLine.arguments
let mode = arguments.count > 1 ? arguments[1] : "ours"
let count = arguments.count > 2 ? Int(arguments[2]) ?? 1_000_000 : 1_000_000

switch mode {
case "ours":
    let validator = PayloadValidator(manifest: Manifest.parse(manifestJSON).manifest!)
    var writer = PayloadWriter()
    var problems = 0
    measure(mode) {
        var totalBytes = 0
        for index in 0..<count {
            let payload = makePayload(Personalization(index))
            writer.write(payload)
            let size = writer.bytes.count
            totalBytes += size
            problems += validator.validate(payload, context: sendContext, encodedSize: size).count
        }
        return totalBytes
    }
    guard problems == 0 else { fatalError("the benchmark's payloads should be valid; \(problems) diagnostics") }
case "template":
    let validator = PayloadValidator(manifest: Manifest.parse(manifestJSON).manifest!)
    let (template, values) = makeTemplate(validator)
    var writer = JSONWriter(reservingCapacity: 4096)
    measure(mode) {
        var totalBytes = 0
        for index in 0..<count {
            try! template.render(values(Personalization(index)), into: &writer)
            totalBytes += writer.bytes.count
        }
        return totalBytes
    }
case "jsonencoder", "jsonencoder-default":
    let encoder = mode == "jsonencoder" ? sameBytesEncoder() : JSONEncoder()
    measure(mode) {
        var totalBytes = 0
        for index in 0..<count {
            totalBytes += try! encoder.encode(makeCodable(Personalization(index))).count
        }
        return totalBytes
    }
case "stages":
    // Where the time goes: each stage adds one step to the previous one.
    let validator = PayloadValidator(manifest: Manifest.parse(manifestJSON).manifest!)
    var writer = PayloadWriter()
    var sink = 0
    func time(_ name: String, _ body: (Int) -> Void) {
        let start = ContinuousClock.now
        for index in 0..<count { body(index) }
        let seconds = (ContinuousClock.now - start) / .seconds(1)
        print("stage=\(name) ns_per_payload=\(Int(seconds * 1e9 / Double(count)))")
    }
    time("strings") { sink &+= Personalization($0).body.utf8.count }
    time("strings+interactive") {
        let fields = Personalization($0)
        sink &+= Payload.interactive(category: "message", title: fields.title, body: fields.body).aps.badge ?? 1
    }
    time("strings+3 argument literals") {
        // What `makePayload` builds: two actions' `ActionArguments` and the `action_args` dictionary.
        let fields = Personalization($0)
        let a: ActionArguments = ["url": .string(fields.likeURL)]
        let b: ActionArguments = ["url": .string(fields.deepLink)]
        let c: [String: JSONValue] = ["id": .integer(Int64(fields.index)), "user": .string(fields.user)]
        sink &+= a.count + b.count + c.count
    }
    time("strings+build") { sink &+= makePayload(Personalization($0)).aps.badge ?? 1 }
    time("strings+build+write") {
        writer.write(makePayload(Personalization($0)))
        sink &+= writer.bytes.count
    }
    time("strings+build+write+validate") {
        let payload = makePayload(Personalization($0))
        writer.write(payload)
        sink &+= validator.validate(payload, context: sendContext, encodedSize: writer.bytes.count).count
    }
    let encoder = sameBytesEncoder()
    time("strings+codable") { sink &+= makeCodable(Personalization($0)).actionArgs.id }
    time("strings+codable+JSONEncoder") { sink &+= try! encoder.encode(makeCodable(Personalization($0))).count }
    print("sink=\(sink)")
case "verify":
    // The same bytes from our writer, the template and the configured JSONEncoder; the same JSON value from
    // JSONEncoder's default output (which escapes `/` and orders keys its own way).
    let encoder = sameBytesEncoder()
    let defaultEncoder = JSONEncoder()
    let (template, values) = makeTemplate(PayloadValidator(manifest: Manifest.parse(manifestJSON).manifest!))
    for index in 0..<count {
        // The strings are what concatenation gives (as they were built before).
        let fields = Personalization(index)
        let number = String(index)
        guard fields.title == "Anna " + number,
            fields.body == "Message " + number + ": lunch at " + String(index % 24) + ":00 tomorrow?",
            fields.thread == "chat-" + String(index % 1000),
            fields.likeURL == "https://api.example.com/messages/" + number + "/like",
            fields.deepLink == "chatter://message/" + number, fields.user == "user-" + number
        else { fatalError("payload \(index): the personalized strings differ from their concatenation") }
        let ours = PayloadWriter.encode(makePayload(Personalization(index)))
        let theirs = Array(try! encoder.encode(makeCodable(Personalization(index))))
        let rendered = try! template.render(values(Personalization(index)))
        let defaultValue = try! JSONParser.parse(Array(try! defaultEncoder.encode(makeCodable(Personalization(index)))))
        guard ours == theirs, rendered == theirs, try! JSONParser.parse(ours) == defaultValue else {
            fatalError(
                "payload \(index) differs:\n\(String(decoding: ours, as: UTF8.self))\n\(String(decoding: theirs, as: UTF8.self))"
            )
        }
    }
    print("mode=verify count=\(count) equal=true")
default:
    print("usage: PayloadBenchmark ours|jsonencoder|jsonencoder-default|template|stages|verify [COUNT]")
    exit(2)
}
