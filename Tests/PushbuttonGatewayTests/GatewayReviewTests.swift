import Foundation
import Pushbutton
import PushbuttonAPNsMock
import PushbuttonStore
import Testing

@testable import PushbuttonGateway

/// The review's findings, each where it could fail: the threads the gateway's blocking work runs on (and
/// that they end with it), the metrics' route labels, the attempts and the clock recorded, one token check.
@Suite(.timeLimit(.minutes(3)))
struct GatewayReviewTests {
    typealias F = GatewayFixture

    @Test func storeCallsRunOnThreadsOfTheirOwnThatEndWithTheGateway() async throws {
        let directory = NSTemporaryDirectory() + "pushbutton-threads-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = ThreadRecordingStore(try SQLGatewayStore.sqlite(path: directory + "/gateway.db"))
        let fixture = try await GatewayFixture(store: store)
        let dead = F.token(3)
        fixture.mock.registry.unregister(token: dead)
        let sent = try await fixture.request(
            "POST", "/v1/apps/chat/notifications",
            json:
                #"{"to": {"tokens": ["\#(F.token(1))", "\#(F.token(2))", "\#(dead)"]}, "category": "message", "body": "Hi"}"#
        )
        _ = try await fixture.settled(try #require(sent.json?.objectValue?["id"]?.stringValue))
        #expect(await fixture.webhook.wait(for: 1))
        #expect(fixture.gateway.runningThreads > 0)
        await fixture.stop()
        let threads = store.workerThreads
        #expect(threads.count >= 3, "lease, record and the webhook relay's calls: \(threads)")
        #expect(
            threads.allSatisfy { $0.hasPrefix("pb-store-") },
            "not on Swift's cooperative pool: \(threads)")
        #expect(fixture.gateway.runningThreads == 0, "the handler and store threads ended with the gateway")
    }

    @Test func metricsLabelRequestsByAFixedSetOfRoutes() async throws {
        let fixture = try await GatewayFixture(workers: 0)
        defer { Task { await fixture.stop() } }
        for path in ["/nope", "/v1/apps/chat/other/%00x", "/%00", "/v1/\(UUID().uuidString)", "/v1/apps/chat"] {
            #expect(try await fixture.request("GET", path).status == 404, "\(path)")
            #expect(try await fixture.request("GET", path, key: nil).status == 401, "\(path)")
        }
        #expect(try await fixture.request("POST", "/v1/apps/chat/notifications", key: nil, json: "{}").status == 401)
        #expect(try await fixture.request("PATCH", "/v1/apps/chat/notifications").status == 405)
        #expect(try await fixture.request("GET", "/v1/notifications/n_\(UUID().uuidString)").status == 404)
        #expect(try await fixture.request("GET", "/metrics").status == 200)
        let metrics = try await fixture.request("GET", "/metrics")
        #expect(metrics.status == 200)
        #expect(metrics.body.contains(#"pushbutton_http_requests_total{route="GET /metrics",status="200"} 1"#))
        let prefix = #"pushbutton_http_requests_total{route=""#
        var counts: [String: Int] = [:]
        for line in metrics.body.split(separator: "\n") where line.hasPrefix(prefix) {
            let rest = line.dropFirst(prefix.count)
            guard let quote = rest.firstIndex(of: "\"") else { continue }
            counts[String(rest[..<quote]), default: 0] += Int(line.split(separator: " ").last ?? "") ?? 0
        }
        let known: Set<String> = [
            "unknown", "GET /metrics", "GET /healthz", "GET /readyz", "POST /v1/apps/{app}/notifications",
            "GET /v1/notifications/{id}",
        ]
        #expect(Set(counts.keys).isSubset(of: known), "\(counts.keys.sorted())")
        #expect(counts["unknown"] == 11, "10 unknown paths (404 and 401 alike) and one 405: \(counts)")
        #expect(counts["POST /v1/apps/{app}/notifications"] == 1, "a 401 is counted under its route")
        #expect(counts["GET /v1/notifications/{id}"] == 1)
        #expect(!metrics.body.contains("%00") && !metrics.body.contains("\u{0}") && !metrics.body.contains("nope"))
    }

    @Test func attemptsAfterRetriesAndTheInjectedClockAreRecorded() async throws {
        let clock = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 - 3600).rounded())
        let fixture = try await GatewayFixture(
            faults: FaultPlan(seed: 7, serviceUnavailableRate: 0.4), now: { clock })
        defer { Task { await fixture.stop() } }
        let dead = F.token(20)
        #expect(try await fixture.request("PUT", "/v1/apps/chat/devices/\(dead)", key: F.publishable).status == 200)
        fixture.mock.registry.unregister(token: dead)
        let tokens = (1...12).map { F.token($0) } + [dead]
        let sent = try await fixture.request(
            "POST", "/v1/apps/chat/notifications",
            json:
                #"{"to": {"tokens": [\#(tokens.map { "\"\($0)\"" }.joined(separator: ", "))]}, "category": "message", "body": "Hi"}"#
        )
        let record = try await fixture.settled(try #require(sent.json?.objectValue?["id"]?.stringValue))
        let deliveries = try #require(record.objectValue?["deliveries"]?.arrayValue)
        let attempts = deliveries.compactMap { $0.objectValue?["attempts"]?.integerValue }
        #expect(attempts.count == 13)
        #expect(attempts.contains { $0 > 1 }, "some were retried after a 503: \(attempts)")
        #expect(
            attempts.reduce(0, +) == Int64(fixture.mock.counters.requests),
            "every request the mock answered is counted once: \(attempts), \(fixture.mock.counters)")
        #expect(await fixture.webhook.wait(for: 1))
        let first = try #require(fixture.webhook.events.first)
        let event = try #require(try JSONParser.parse(first.body).objectValue)
        #expect(event["type"] == "device.unregistered")
        #expect(event["at"]?.integerValue == Int64(clock.timeIntervalSince1970 * 1000), "the gateway's clock")
        let device = try #require(try fixture.gateway.store.device(app: "chat", token: dead))
        #expect(!device.active)
        #expect(device.updatedAt == clock, "the gateway's clock, not the wall clock")
    }

    @Test func tokensOfEveryLengthTheSenderTakesAreAccepted() async throws {
        let fixture = try await GatewayFixture(workers: 0)
        defer { Task { await fixture.stop() } }
        let long = String(repeating: "ab", count: 50)
        #expect(try await fixture.request("PUT", "/v1/apps/chat/devices/\(long)", key: F.publishable).status == 200)
        let upper = String(repeating: "CD", count: 32)
        let registered = try await fixture.request("PUT", "/v1/apps/chat/devices/\(upper)", key: F.publishable)
        #expect(registered.json?.objectValue?["token"]?.stringValue == upper.lowercased())
        for bad in [
            String(repeating: "a", count: 63), String(repeating: "ab", count: 101), String(repeating: "g", count: 64),
        ] {
            #expect(try await fixture.request("PUT", "/v1/apps/chat/devices/\(bad)", key: F.publishable).status == 422)
        }
        let sent = try await fixture.request(
            "POST", "/v1/apps/chat/notifications",
            json:
                #"{"to": {"tokens": ["\#(long)", "\#(String(repeating: "ef", count: 100))"]}, "category": "message", "body": "Hi"}"#
        )
        #expect(sent.status == 202, "\(sent.body)")
        let refused = try await fixture.request(
            "POST", "/v1/apps/chat/notifications",
            json: #"{"to": {"tokens": ["\#(String(repeating: "a", count: 65))"]}, "category": "message", "body": "Hi"}"#
        )
        #expect(refused.status == 422)
        #expect(refused.body.contains("64 to 200 hexadecimal digits"), "\(refused.body)")
    }
}
