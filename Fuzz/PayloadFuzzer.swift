// libFuzzer entry point for the payload reader and writer. Built by `make fuzz` with the Pushbutton
// module's sources. Invariant: any input gives diagnostics, never a crash; and whatever is read writes
// back to bytes that read again as the same payload (nothing lost, nothing changed).

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPayload(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let payload = Payload.parse(bytes).payload else { return 0 }
    let written = PayloadWriter.encode(payload)
    precondition(written == JSONWriter.compact(payload.jsonValue), "the fast writer disagrees with the generic one")
    let reread = Payload.parse(written).payload
    precondition(reread == payload, "a payload changed on a write/read round trip")
    _ = payload.sizeReport()
    _ = payload.truncatingAlertBody(toFit: 256)
    // One push type per input (by its length), so every type's rules and the Live Activity's see every shape.
    let type = PushType.known[size % PushType.known.count]
    _ = PayloadValidator().validate(payload, context: .init(pushType: type, priority: 10, topic: "com.example.app"))
    return 0
}
