// libFuzzer entry point for the NDJSON line reader (`LineSplitter`) and line parser (`SendLine`), built by
// `make fuzz` with the Pushbutton module's sources. The first byte picks the chunk size the input is fed
// in. Invariants: any input gives lines or line errors, never a crash; splitting does not depend on how
// the input is chunked; and a payload taken from a line is valid JSON equal to the line's parsed payload.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzNDJSONLines(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0 else { return 0 }
    let chunk = Int(data[0] % 17) + 1
    let bytes = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
    let limit = 64 + Int(data[0])
    var whole = LineSplitter(maximumLength: limit)
    var expected: [LineSplitter.Line] = []
    whole.feed(bytes) { expected.append($0) }
    whole.finish { expected.append($0) }
    var chunked = LineSplitter(maximumLength: limit)
    var lines: [LineSplitter.Line] = []
    var start = 0
    while start < bytes.count {
        let end = min(bytes.count, start + chunk)
        chunked.feed(bytes[start..<end]) { lines.append($0) }
        start = end
    }
    chunked.finish { lines.append($0) }
    precondition(lines == expected, "the lines depend on how the input was chunked")
    let newlines = bytes.filter { $0 == 0x0A }.count
    precondition(lines.count == newlines + (bytes.last == 0x0A || bytes.isEmpty ? 0 : 1), "a line was lost")
    for line in lines {
        guard case .text(let text) = line else { continue }
        precondition(text.count <= limit && !text.contains(0x0A), "a line is over the limit or holds a line break")
        guard let parsed = try? SendLine.parse(text), let payload = parsed.payload else { continue }
        let original = try! JSONParser.parse(text)["payload"]!
        precondition((try? JSONParser.parse(payload)) == original, "the payload changed on its way out of the line")
    }
    return 0
}
