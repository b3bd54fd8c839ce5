import Foundation
import PushbuttonStore

// Audience counts (issue 35): `POST /v1/apps/{app}/audience/count`'s store call on DEVICES devices, beside the
// floor (a plain count of the app's active devices, in the devices table and in the audience table a segment's
// count reads), rounds alternating floor and segment, on the store given
// (a store that already has the app's devices, a copy of a previous run's, is counted as it is):
//   AudienceBenchmark sqlite:PATH|postgres://… [DEVICES] [ROUNDS]
// Prints each segment's median, min and max milliseconds and its ratio to the floor's median; on SQLite (queried in
// this process) also the median CPU time, user and system, which a loaded machine does not inflate as it does the
// wall time.
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

/// The process's CPU time so far, user and system, in milliseconds.
func cpuMilliseconds() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * 1000
        + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1000
}

/// `body`'s wall time and CPU time in milliseconds, and its result.
func milliseconds(_ body: () throws -> Int) rethrows -> (Double, Double, Int) {
    let start = ContinuousClock.now
    let cpu = cpuMilliseconds()
    let result = try body()
    let elapsed = ContinuousClock.now - start
    return (
        Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15,
        cpuMilliseconds() - cpu, result
    )
}
let inProcess = location.hasPrefix("sqlite:")

do {
    // Opening the store applies the migrations it lacks: a database made by an earlier build is upgraded here.
    var opened: SQLGatewayStore?
    let (opening, _, _) = try milliseconds {
        opened =
            location.hasPrefix("sqlite:")
            ? try SQLGatewayStore.sqlite(path: String(location.dropFirst(7)))
            : try SQLGatewayStore.postgres(url: location, connections: 2)
        return 0
    }
    guard let store = opened else { exit(1) }
    let storeName = location.hasPrefix("sqlite:") ? "SQLite" : "PostgreSQL"
    print("\(storeName): store opened (and migrated) in \(Int(opening)) ms")
    // A database that already has the devices (a copy of a previous run's file) is counted as it is: making a
    // million devices took minutes.
    let existing = try store.countActiveDevices(app: "bench")
    if existing > 0 {
        print("\(storeName): reusing the \(existing) active devices already made")
    } else {
        let (made, _, _) = try milliseconds {
            try store.makeBenchmarkDevices(app: "bench", count: devices, now: now)
            return 0
        }
        print("\(storeName): \(devices) devices made in \(Int(made)) ms")
    }
    let v21 = AppVersionNumber.parse("2.1")!
    // Every leaf kind, tags common and rare, and the connectives (the data: makeBenchmarkDevices).
    let segments: [(String, Segment)] = [
        ("tag newsletter (45%)", .tag("newsletter")),
        ("tag beta (10%)", .tag("beta")),
        ("tag churn-risk (5%)", .tag("churn-risk")),
        ("tag vip (1%)", .tag("vip")),
        ("tag early-access (0.1%)", .tag("early-access")),
        ("user u-4242", .user("u-4242")),
        ("locale fr", .locale("fr")),
        ("locale zh-Hant", .locale("zh-Hant")),
        ("app_version >=2.1", .appVersion(.greaterOrEqual, version: v21)),
        ("time_zone Europe/Paris", .timeZone("Europe/Paris")),
        ("last_seen_days 30", .lastSeenDays(30)),
        ("tapped order 7d", .tapped(category: "order", withinDays: 7)),
        ("tapped any 30d", .tapped(category: nil, withinDays: 30)),
        ("vip or ja", .or([.tag("vip"), .locale("ja")])),
        ("not newsletter", .not(.tag("newsletter"))),
        ("vip and fr", .and([.tag("vip"), .locale("fr")])),
        ("beta and fr and not <2.1", .and([.tag("beta"), .locale("fr"), .not(.appVersion(.less, version: v21))])),
        (
            "premium, seen 30d, not tapped",
            .and([.tag("premium"), .lastSeenDays(30), .not(.tapped(category: nil, withinDays: 30))])
        ),
    ]
    var floor: [Double] = []
    var floorCPU: [Double] = []
    var audienceFloor: [Double] = []
    var audienceFloorCPU: [Double] = []
    // Each segment counted as the gateway does (a rare tag leads) and as every segment was before TagLead (a
    // scan of the active devices: no tag rare), the two in turn, which first alternating by round.
    var times = Array(repeating: [Double](), count: segments.count)
    var cpus = Array(repeating: [Double](), count: segments.count)
    var scans = Array(repeating: [Double](), count: segments.count)
    var scanCPUs = Array(repeating: [Double](), count: segments.count)
    var counts = Array(repeating: 0, count: segments.count)
    var all = 0
    for round in 0..<rounds {
        let (time, cpu, count) = try milliseconds { try store.countActiveDevices(app: "bench") }
        floor.append(time)
        floorCPU.append(cpu)
        all = count
        let (audienceTime, audienceCPU, audienceCount) = try milliseconds {
            try store.countActiveDevices(app: "bench", inAudience: true)
        }
        audienceFloor.append(audienceTime)
        audienceFloorCPU.append(audienceCPU)
        if audienceCount != count {
            FileHandle.standardError.write(
                Data("AudienceBenchmark: \(audienceCount) audience rows, \(count) active\n".utf8))
            exit(1)
        }
        for (index, (name, segment)) in segments.enumerated() {
            var found: [Int] = []
            for scan in round % 2 == 0 ? [false, true] : [true, false] {
                let (time, cpu, count) = try milliseconds {
                    try store.countDevices(app: "bench", segment: segment, now: now, rareTagLimit: scan ? 0 : nil)
                }
                if scan {
                    scans[index].append(time)
                    scanCPUs[index].append(cpu)
                } else {
                    times[index].append(time)
                    cpus[index].append(cpu)
                }
                found.append(count)
            }
            if found[0] != found[1] {
                FileHandle.standardError.write(Data("AudienceBenchmark: \(name): counts \(found) differ\n".utf8))
                exit(1)
            }
            counts[index] = found[0]
        }
    }
    func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
    let base = median(floor)
    func row(_ name: String, _ devices: String, _ values: [String]) {
        let cells = [devices] + values
        print(
            "  " + name.padding(toLength: 32, withPad: " ", startingAt: 0)
                + cells.map { String(repeating: " ", count: max(0, 10 - $0.count)) + $0 }.joined())
    }
    func ms(_ value: Double) -> String { String(format: "%.1f", value) }
    func ratio(_ value: Double) -> String { String(format: "%.2f", value / base) }
    row(
        "query", "devices",
        ["median ms", "min", "max", "÷ floor", "scan ms", "÷ floor"] + (inProcess ? ["cpu ms", "scan cpu"] : []))
    row(
        "floor: count(*) active", "\(all)",
        [ms(base), ms(floor.min()!), ms(floor.max()!), "1.00", "", ""] + (inProcess ? [ms(median(floorCPU)), ""] : []))
    let audienceBase = median(audienceFloor)
    row(
        "floor: count(*) audience rows", "\(all)",
        [ms(audienceBase), ms(audienceFloor.min()!), ms(audienceFloor.max()!), ratio(audienceBase), "", ""]
            + (inProcess ? [ms(median(audienceFloorCPU)), ""] : []))
    for (index, (name, _)) in segments.enumerated() {
        let values = times[index]
        row(
            name, "\(counts[index])",
            [
                ms(median(values)), ms(values.min()!), ms(values.max()!), ratio(median(values)),
                ms(median(scans[index])), ratio(median(scans[index])),
            ] + (inProcess ? [ms(median(cpus[index])), ms(median(scanCPUs[index]))] : []))
    }
} catch {
    FileHandle.standardError.write(Data("AudienceBenchmark: \(error)\n".utf8))
    exit(1)
}
