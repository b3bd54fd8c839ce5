// Outbox benchmark. `OutboxBenchmark schema DB` creates an empty outbox (the reference inserts into the same
// table); `enqueue N DB` commits N taps one at a time (each its own durable transaction, fsync on);
// `deliver DB ENDPOINT [urlsession|curl]` drains them to a local backend with URLSessionSender (the default) or,
// on Linux, CurlSender; `enqueue-group N DB` commits N taps given at once (one group commit).
import Foundation
import Pushbutton
import PushbuttonOutbox
import PushbuttonReceiver

let arguments = CommandLine.arguments
func usage() -> Never {
    print(
        "usage: OutboxBenchmark schema DB | enqueue N DB | enqueue-group N DB | deliver DB ENDPOINT [urlsession|curl]")
    exit(2)
}
guard arguments.count >= 3 else { usage() }

func request(_ index: Int) -> BackendRequest {
    BackendRequest(
        url: "https://api.example.com/messages/\(index)/like", body: ["message": .integer(Int64(index))],
        idempotencyKey: "bench-\(index)", notificationIdentifier: "n\(index)", actionIdentifier: "like")
}

switch arguments[1] {
case "schema":
    _ = try Outbox(path: arguments[2])
case "enqueue" where arguments.count >= 4:
    guard let count = Int(arguments[2]), count > 0 else { usage() }
    let outbox = try Outbox(path: arguments[3])
    let start = ContinuousClock.now
    for index in 0..<count { try await outbox.enqueue(request(index)) }
    let seconds = (ContinuousClock.now - start) / .seconds(1)
    print("mode=enqueue count=\(count) seconds=\(seconds)")
case "enqueue-group" where arguments.count >= 4:
    guard let count = Int(arguments[2]), count > 0 else { usage() }
    let outbox = try Outbox(path: arguments[3])
    let start = ContinuousClock.now
    let results = await outbox.enqueue(contentsOf: (0..<count).map(request))
    let seconds = (ContinuousClock.now - start) / .seconds(1)
    for result in results { _ = try result.get() }
    print("mode=enqueue-group count=\(count) seconds=\(seconds)")
case "deliver" where arguments.count >= 4:
    let outbox = try Outbox(path: arguments[2])
    let sender: any OutboxSender
    switch arguments.count > 4 ? arguments[4] : "urlsession" {
    case "urlsession": sender = URLSessionSender()
    #if os(Linux)
        case "curl": sender = CurlSender(connections: await outbox.options.maximumConcurrentRequests)
    #endif
    default: usage()
    }
    let start = ContinuousClock.now
    let report = try await outbox.drain(
        sender: sender, untilEmpty: true, endpoint: arguments[3], timeLimit: .seconds(600))
    let seconds = (ContinuousClock.now - start) / .seconds(1)
    print("mode=deliver count=\(report.delivered) seconds=\(seconds) remaining=\(report.remaining)")
default:
    usage()
}
