import Foundation
import Pushbutton
import PushbuttonAPNs
import Testing

@testable import PushbuttonCLI

/// The reusable result-line writer gives the bytes of the JSONValue path it replaces, for every outcome.
@Suite struct SendResultLineWriterTests {
    @Test func everyOutcomeIsWrittenAsTheJSONValuePathWritesIt() throws {
        let notification = APNsNotification(
            deviceToken: try DeviceToken(String(repeating: "0f", count: 32)), payload: [], topic: "com.example.app")
        let id = notification.apnsID
        let results: [APNsResult] = [
            .delivered(apnsID: id, uniqueID: nil),
            .delivered(apnsID: id, uniqueID: "8a2e-unique"),
            .rejected(apnsID: id, status: 410, reason: .unregistered, unregisteredAt: Date(timeIntervalSince1970: 1.5)),
            .rejected(
                apnsID: id, status: 400, reason: APNsReason(rawValue: "Bad\"Device\u{1}Token"), unregisteredAt: nil),
            .failed(
                apnsID: id, attempts: 5,
                lastCause: APNsError(.transport, "stream lost: the server closed the connection\n\\")),
        ]
        var writer = SendResultLine()
        for result in results {
            for (line, lineID) in [(nil, nil), (7, nil), (12, "order-\"42\" é"), (nil, "x")] as [(Int?, String?)] {
                let expected = JSONWriter.compact(SendSummary.json(notification, result, line: line, id: lineID))
                let written = writer.write(notification, result, line: line, id: lineID)
                #expect(
                    written == expected,
                    "\(String(decoding: written, as: UTF8.self)) != \(String(decoding: expected, as: UTF8.self))")
            }
        }
    }
}
