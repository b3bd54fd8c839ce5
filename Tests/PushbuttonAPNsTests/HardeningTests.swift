import Foundation
import Pushbutton
import Testing

@testable import PushbuttonAPNs

/// What a hostile server or input can do to the sender: nothing that traps, nothing smuggled.
@Suite(.timeLimit(.minutes(5))) struct HardeningTests {
    @Test func deviceTokensHaveALengthLimit() throws {
        #expect(try DeviceToken(String(repeating: "ab", count: 100)).hex.count == 200)
        #expect(throws: APNsError.self) { try DeviceToken(String(repeating: "ab", count: 101)) }
        #expect(throws: APNsError.self) { try DeviceToken(String(repeating: "a", count: 10_000_000)) }
    }

    @Test func timestampsOutOfRangeAreIgnoredAndReasonsEscaped() {
        for (text, expected) in [
            ("1e300", nil), ("-1", nil), ("99999999999999999999999999", nil), ("\"soon\"", nil),
            ("1.7976931348623157e308", nil), ("1700000000000", Date(timeIntervalSince1970: 1_700_000_000)),
        ] as [(String, Date?)] {
            let response = APNsResponse(
                status: 410, headers: [:], body: Array(#"{"reason":"Unregistered","timestamp":\#(text)}"#.utf8))
            #expect(response.timestamp == expected, "\(text)")
            #expect(response.reason == .unregistered)
        }
        let hostile = APNsResponse(
            status: 400, headers: ["apns-unique-id": "u\u{1B}[2J"],
            body: Array(#"{"reason":"Bad\u001b[31m\r\nx"}"#.utf8))
        #expect(hostile.reason?.rawValue == #"Bad\u{1B}[31m\r\nx"#)
        #expect(hostile.uniqueID == #"u\u{1B}[2J"#)
    }

    @Test func aHeaderWithALineBreakIsRefusedBeforeTheNetworkAndNotRetried() async throws {
        // Nothing listens on port 9: a request that reached the network would fail with a transport error.
        let transport = try NGHTTP2Transport(
            .init(environment: APNsEnvironment(host: "127.0.0.1", port: 9, cleartext: true)))
        let client = APNsClient(transport: transport, tokens: nil)
        for (topic, collapseID) in [
            ("com.example\r\nx-injected: 1", nil), ("com.example", "a\nb"), ("com.example\0", nil),
        ] as [(String, String?)] {
            let notification = APNsNotification(
                deviceToken: try DeviceToken(String(repeating: "ab", count: 32)), payload: Array("{}".utf8),
                topic: topic,
                collapseID: collapseID)
            guard case .failed(_, let attempts, let cause) = await client.send(notification) else {
                Issue.record("a request with a smuggled header must fail")
                continue
            }
            #expect(attempts == 1)
            #expect(cause.message.contains("control character"), "\(cause)")
        }
        let request = HTTPRequest(path: "/", headers: [("x-a", "b\r\nc: d")], body: [], timeout: .seconds(1))
        #expect(request.headerProblem != nil)
        #expect(
            HTTPRequest(path: "/", headers: [("X-Upper", "b")], body: [], timeout: .seconds(1)).headerProblem != nil)
        await client.shutdown()
    }

    @Test func aHugeChannelCapacityAllocatesNothingUpFrontAndKeepsOrder() async {
        let channel = BoundedChannel<Int>(capacity: 1_000_000_000)
        let producer = Thread {
            for number in 0..<5000 { channel.send(number) }
            channel.finish()
        }
        producer.start()
        var received: [Int] = []
        for await number in channel { received.append(number) }
        #expect(received == Array(0..<5000))
    }
}
