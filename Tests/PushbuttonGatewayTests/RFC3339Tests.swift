import Foundation
import Pushbutton
import Testing

@testable import PushbuttonGateway

/// The hand-written RFC 3339 reader agrees with Foundation's formatter, and refuses what is not a time.
struct RFC3339Tests {
    @Test(arguments: [
        "2026-12-01T10:45:00Z", "2026-12-01T10:45:00.250Z", "2026-12-01T10:45:00.123456Z", "2026-12-01t10:45:00z",
        "2026-12-01T12:45:00+02:00", "2026-12-01T05:15:00-05:30", "2024-02-29T23:59:59Z", "1970-01-01T00:00:00Z",
        "1969-12-31T23:59:59Z", "2000-03-01T00:00:00Z", "2100-12-31T00:00:00.5+14:00",
    ])
    func agreesWithFoundation(_ text: String) throws {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let plain = ISO8601DateFormatter()
        let expected = try #require(formatter.date(from: text) ?? plain.date(from: text.uppercased()))
        let read = try #require(RFC3339.date(text))
        #expect(abs(read.timeIntervalSince1970 - expected.timeIntervalSince1970) < 0.001)
    }

    @Test(arguments: [
        "", "yesterday", "2026-12-01", "2026-12-01T10:45Z", "2026-12-01T10:45:00", "2026-13-01T10:45:00Z",
        "2026-02-29T10:45:00Z", "2026-12-01T24:00:00Z", "2026-12-01T10:60:00Z", "2026-12-01T10:45:00.Z",
        "2026-12-01T10:45:00+0200", "2026-12-01T10:45:00Z ", "２０26-12-01T10:45:00Z",
    ])
    func refusesWhatIsNotATime(_ text: String) {
        #expect(RFC3339.date(text) == nil)
    }

    @Test func writesUTCWithMilliseconds() {
        #expect(RFC3339.text(Date(timeIntervalSince1970: 1_800_000_000.25)) == "2027-01-15T08:00:00.250Z")
    }
}
