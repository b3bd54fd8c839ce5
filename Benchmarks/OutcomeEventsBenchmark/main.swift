import Foundation
import PushbuttonStore

// The event stream's cost on a campaign (issue 35): a campaign of COUNT recipients leased and recorded as
// delivered in batches of 500 (what the workers do, without APNs), with the stream off and with every type on
// (one `notification.sent` row per recipient in each outcome transaction, and the campaign's end), rounds
// alternating off and on, each on a fresh store:
//   OutcomeEventsBenchmark sqlite:DIRECTORY [COUNT] [ROUNDS]
let arguments = CommandLine.arguments
guard arguments.count >= 2 else {
    FileHandle.standardError.write(Data("usage: OutcomeEventsBenchmark sqlite:DIRECTORY [COUNT] [ROUNDS]\n".utf8))
    exit(64)
}
let directory = String(arguments[1].dropFirst("sqlite:".count))
let count = arguments.count > 2 ? Int(arguments[2]) ?? 100_000 : 100_000
let rounds = arguments.count > 3 ? Int(arguments[3]) ?? 3 : 3

/// Recipients per second through lease and record, the stream on or off.
func run(stream: Bool, round: Int) throws -> Double {
    let path = "\(directory)/outcomes-\(round)-\(stream ? "on" : "off").db"
    let store = try SQLGatewayStore.sqlite(path: path)
    if stream { store.streamEvents(Set(StreamEvent.Kind.allCases)) }
    let now = Date()
    let spec = NotificationSpec(
        id: "c_bench", app: "bench", kind: .campaign, topic: "com.example.bench", createdAt: now)
    let payload = Array(#"{"aps":{"alert":"Hi"}}"#.utf8)
    let deliveries = (0..<count).map {
        NewDelivery(token: String(format: "%064x", $0 + 1), apnsID: "a-\($0)", payload: payload)
    }
    _ = try store.enqueue(spec, deliveries: deliveries, idempotency: nil, now: now)
    let start = ContinuousClock.now
    var done = 0
    while done < count {
        let leased = try store.lease(limit: 500, duration: 60, now: now)
        guard !leased.isEmpty else { break }
        _ = try store.record(
            leased.map { CompletedDelivery($0, outcome: .delivered, attempts: 1) }, webhookEvents: false, now: now)
        done += leased.count
    }
    let elapsed = ContinuousClock.now - start
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    if stream {
        var events = 0
        while true {
            let claimed = try store.claimStreamEvents(limit: 1000, duration: 60, now: now)
            guard !claimed.isEmpty else { break }
            events += claimed.count
            try store.finishStreamEvents(claimed.map(\.rowID))
        }
        guard events == count + 1 else {
            throw StoreError(.inconsistent, "\(events) events for \(count) recipients", context: "the benchmark")
        }
    }
    return Double(done) / seconds
}

do {
    var ratios: [Double] = []
    print("SQLite: \(count) recipients leased and recorded in batches of 500; recipients per second")
    for round in 0..<rounds {
        let off = try run(stream: false, round: round)
        let on = try run(stream: true, round: round)
        ratios.append(on / off)
        print(
            String(format: "  round %d: stream off %8.0f/s   on %8.0f/s   on ÷ off %.2f", round + 1, off, on, on / off))
    }
    let sorted = ratios.sorted()
    print(
        String(
            format: "  on ÷ off: min %.2f, median %.2f, max %.2f", sorted.first!, sorted[sorted.count / 2],
            sorted.last!))
} catch {
    FileHandle.standardError.write(Data("OutcomeEventsBenchmark: \(error)\n".utf8))
    exit(1)
}
