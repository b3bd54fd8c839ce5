import Foundation
import PushbuttonStore

// Audience counts (issue 35): `POST /v1/apps/{app}/audience/count`'s store call on DEVICES devices, beside the
// floor (a plain count of the app's active devices), rounds alternating floor and segment, on the store given:
//   AudienceBenchmark sqlite:PATH|postgres://… [DEVICES] [ROUNDS]
// Prints each segment's median, min and max milliseconds and its ratio to the floor's median.
let arguments = CommandLine.arguments
guard arguments.count >= 2 else {
    FileHandle.standardError.write(
        Data("usage: AudienceBenchmark sqlite:PATH|postgres://URL [DEVICES] [ROUNDS]\n".utf8))
    exit(64)
}
let location = arguments[1]
let devices = arguments.count > 2 ? Int(arguments[2]) ?? 1_000_000 : 1_000_000
let rounds = arguments.count > 3 ? Int(arguments[3]) ?? 5 : 5
let now = Date()

func milliseconds(_ body: () throws -> Int) rethrows -> (Double, Int) {
    let start = ContinuousClock.now
    let result = try body()
    let elapsed = ContinuousClock.now - start
    return (Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15, result)
}

do {
    let store =
        location.hasPrefix("sqlite:")
        ? try SQLGatewayStore.sqlite(path: String(location.dropFirst(7)))
        : try SQLGatewayStore.postgres(url: location, connections: 2)
    let (made, _) = try milliseconds {
        try store.makeBenchmarkDevices(app: "bench", count: devices, now: now)
        return 0
    }
    print("\(location.hasPrefix("sqlite:") ? "SQLite" : "PostgreSQL"): \(devices) devices made in \(Int(made)) ms")
    let v21 = AppVersionNumber.parse("2.1")!
    let segments: [(String, Segment)] = [
        ("tag beta", .tag("beta")),
        ("locale fr", .locale("fr")),
        ("app_version >=2.1", .appVersion(.greaterOrEqual, version: v21)),
        ("time_zone Europe/Paris", .timeZone("Europe/Paris")),
        ("last_seen_days 30", .lastSeenDays(30)),
        ("tapped order 7d", .tapped(category: "order", withinDays: 7)),
        ("beta and fr and not <2.1", .and([.tag("beta"), .locale("fr"), .not(.appVersion(.less, version: v21))])),
    ]
    var floor: [Double] = []
    var times = Array(repeating: [Double](), count: segments.count)
    var counts = Array(repeating: 0, count: segments.count)
    var all = 0
    for _ in 0..<rounds {
        let (time, count) = try milliseconds { try store.countActiveDevices(app: "bench") }
        floor.append(time)
        all = count
        for (index, (_, segment)) in segments.enumerated() {
            let (time, count) = try milliseconds { try store.countDevices(app: "bench", segment: segment, now: now) }
            times[index].append(time)
            counts[index] = count
        }
    }
    func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
    let base = median(floor)
    func row(_ name: String, _ devices: String, _ values: [String]) {
        let cells = [devices] + values
        print(
            "  " + name.padding(toLength: 28, withPad: " ", startingAt: 0)
                + cells.map { String(repeating: " ", count: max(0, 10 - $0.count)) + $0 }.joined())
    }
    func ms(_ value: Double) -> String { String(format: "%.1f", value) }
    row("query", "devices", ["median ms", "min", "max", "÷ floor"])
    row("floor: count(*) active", "\(all)", [ms(base), ms(floor.min()!), ms(floor.max()!), "1.00"])
    for (index, (name, _)) in segments.enumerated() {
        let values = times[index]
        row(
            name, "\(counts[index])",
            [ms(median(values)), ms(values.min()!), ms(values.max()!), String(format: "%.2f", median(values) / base)])
    }
} catch {
    FileHandle.standardError.write(Data("AudienceBenchmark: \(error)\n".utf8))
    exit(1)
}
