// The latency floor for `Benchmarks/gateway-latency.sh`: `APNsClient.send` in-process, one notification at a
// time, started open-loop at a fixed rate (each at its planned instant, whether or not the earlier ones were
// answered, so a stall is counted), against the same mock APNs the gateway sends to.
//
//   LatencyBenchmark KEY.p8 KEY_ID TEAM_ID PORT RATE SECONDS TOKEN_PREFIX OUT
//
// Writes one line per notification to OUT: `token planned_us answered_us status`, microseconds since 1970 on
// the real-time clock (the mock's `--record` file uses the same clock), `planned_us` the instant it was due to
// start. TOKEN_PREFIX (hex) starts every token, so the mock's records of this run are told apart.
import Foundation
import Pushbutton
import PushbuttonAPNs
import PushbuttonSupport

let arguments = CommandLine.arguments
guard arguments.count == 9, let port = Int(arguments[4]), let rate = Double(arguments[5]), rate > 0,
    let seconds = Double(arguments[6]), seconds > 0
else {
    print("usage: LatencyBenchmark KEY.p8 KEY_ID TEAM_ID PORT RATE SECONDS TOKEN_PREFIX OUT")
    exit(2)
}
let prefix = arguments[7]
let environment = APNsEnvironment(host: "127.0.0.1", port: port, cleartext: true)
let client = try APNsClient(
    environment: environment, keyFile: arguments[1], keyID: arguments[2], teamID: arguments[3], connections: 1)
let payload = Array(#"{"aps":{"alert":{"title":"Anna","body":"Lunch?"},"category":"message"}}"#.utf8)

func realtimeMicroseconds() -> Int64 {
    var now = timespec()
    clock_gettime(CLOCK_REALTIME, &now)
    return Int64(now.tv_sec) * 1_000_000 + Int64(now.tv_nsec) / 1000
}

func token(_ index: Int) -> DeviceToken {
    let hex = prefix + String(repeating: "0", count: 64 - prefix.count - 16) + String(format: "%016x", index)
    return DeviceToken(storedHex: hex)!
}

// Warm up: the connection and the provider token are made before the first measured send.
_ = await client.send(
    APNsNotification(deviceToken: token(Int(Int32.max)), payload: payload, topic: "com.example.chatter"))

let count = Int(rate * seconds)
let interval = 1.0 / rate
let lines = Locked([String]())
let startRealtime = realtimeMicroseconds()
let start = ContinuousClock.now
await withTaskGroup(of: Void.self) { group in
    for index in 0..<count {
        let offset = Duration.seconds(Double(index) * interval)
        try? await Task.sleep(until: start + offset, clock: .continuous)
        let planned = startRealtime + Int64((Double(index) * interval * 1_000_000).rounded())
        let notification = APNsNotification(
            deviceToken: token(index), payload: payload, topic: "com.example.chatter")
        group.addTask {
            let result = await client.send(notification)
            let answered = realtimeMicroseconds()
            let status: Int
            switch result {
            case .delivered: status = 200
            case .rejected(_, let code, _, _): status = code
            case .failed: status = 0
            }
            let line = "\(notification.deviceToken.hex) \(planned) \(answered) \(status)"
            lines.withLock { $0.append(line) }
        }
    }
}
await client.shutdown()
let text = lines.withLock { $0.joined(separator: "\n") } + "\n"
try text.write(toFile: arguments[8], atomically: true, encoding: .utf8)
