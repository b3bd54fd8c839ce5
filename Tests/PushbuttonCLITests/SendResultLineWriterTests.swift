import Foundation
import Pushbutton
import PushbuttonAPNs
import PushbuttonSupport
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

    /// Written straight from the line's buffer into the output's, the lines are the same bytes, each followed
    /// by a line break.
    @Test func linesWrittenIntoTheOutputAreTheLinesTheWriterReturns() throws {
        let notification = APNsNotification(
            deviceToken: try DeviceToken(String(repeating: "a1", count: 32)), payload: [], topic: "com.example.app")
        let results: [APNsResult] = [
            .delivered(apnsID: notification.apnsID, uniqueID: "u-1"),
            .rejected(apnsID: notification.apnsID, status: 410, reason: .unregistered, unregisteredAt: nil),
            .failed(apnsID: notification.apnsID, attempts: 2, lastCause: APNsError(.transport, "lost")),
        ]
        let written = Locked("")
        var output = BufferedOutput(console: Console(out: { text in written.withLock { $0 += text } }, err: { _ in }))
        var direct = SendResultLine()
        var returned = SendResultLine()
        var expected = ""
        for (index, result) in results.enumerated() {
            direct.write(notification, result, line: index + 1, id: nil, to: &output)
            expected += String(decoding: returned.write(notification, result, line: index + 1, id: nil), as: UTF8.self)
            expected += "\n"
        }
        output.flush()
        #expect(written.withLock { $0 } == expected)
    }
}
