// fuzz-sources: Sources/PushbuttonAPNs/Model/APNsResponse.swift Sources/PushbuttonAPNs/Model/APNsReason.swift Sources/PushbuttonAPNs/Channels/APNsReason+Channels.swift Sources/PushbuttonAPNs/Model/APNsResult.swift Sources/PushbuttonAPNs/Model/APNsError.swift Sources/PushbuttonAPNs/Policy/RetryPolicy.swift
// libFuzzer entry point for the APNs answer parser (`APNsResponse`), built by `make fuzz` with the
// Pushbutton module's sources and the files named above. The first two bytes are the status, the rest
// the body. Invariants: any answer gives a response, never a crash; an error status always has a reason;
// a timestamp is finite and in range, so every later conversion of it (whole milliseconds for JSON, a
// date in text) cannot trap; and the retry policy decides on every answer.

import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAPNsAnswer(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size >= 2 else { return 0 }
    let status = Int(data[0]) << 8 | Int(data[1])
    let body = Array(UnsafeBufferPointer(start: data + 2, count: size - 2))
    let response = APNsResponse(
        status: status, headers: ["apns-id": "0b5b0f6e-3c63-4a3e-9a9b-1f8e2a6c7d10"], body: body)
    precondition(response.status == status)
    if status != 200 { precondition(response.reason != nil, "an error status without a reason") }
    if let timestamp = response.timestamp {
        let milliseconds = timestamp.timeIntervalSince1970 * 1000
        precondition(milliseconds.isFinite && milliseconds >= 0 && milliseconds <= APNsResponse.latestTimestamp)
        _ = Int64(milliseconds)  // what the send command's JSON line does with it
    }
    let result = APNsResult.rejected(
        apnsID: UUID(), status: status, reason: response.reason ?? .badPath, unregisteredAt: response.timestamp)
    _ = result.description
    _ = RetryPolicy().decide(after: response, attempt: 1, tokenRefreshed: false, jitter: 0.5)
    return 0
}
