// Outbox benchmark: `OutboxBenchmark enqueue N DB` commits N taps one at a time (each its own durable
// transaction, fsync on); `OutboxBenchmark deliver DB ENDPOINT` drains them to a local backend.
import Foundation
import Pushbutton
import PushbuttonOutbox
import PushbuttonReceiver

let arguments = CommandLine.arguments
guard arguments.count >= 3 else {
    print("usage: OutboxBenchmark enqueue N DB | deliver DB ENDPOINT")
    exit(2)
}

switch arguments[1] {
case "enqueue":
    let count = Int(arguments[2]) ?? 1000
    let outbox = try Outbox(path: arguments[3])
    let start = ContinuousClock.now
    for index in 0..<count {
        try await outbox.enqueue(
            BackendRequest(
                url: "https://api.example.com/messages/\(index)/like", body: ["message": .integer(Int64(index))],
                idempotencyKey: "bench-\(index)", notificationIdentifier: "n\(index)", actionIdentifier: "like"))
    }
    let seconds = (ContinuousClock.now - start) / .seconds(1)
    print("mode=enqueue count=\(count) seconds=\(seconds)")
case "deliver":
    let outbox = try Outbox(path: arguments[2])
    let start = ContinuousClock.now
    let report = try await outbox.drain(
        sender: URLSessionSender(), untilEmpty: true, endpoint: arguments[3], timeLimit: .seconds(600))
    let seconds = (ContinuousClock.now - start) / .seconds(1)
    print("mode=deliver count=\(report.delivered) seconds=\(seconds) remaining=\(report.remaining)")
default:
    print("usage: OutboxBenchmark enqueue N DB | deliver DB ENDPOINT")
    exit(2)
}
