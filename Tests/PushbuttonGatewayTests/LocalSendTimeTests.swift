import Foundation
import Pushbutton
import PushbuttonSupport
import Testing

@testable import PushbuttonGateway

/// ``LocalSendTime``: a wall-clock time in a zone, across Europe/Paris' changes of 2026 (a gap on 03-29 at
/// 02:00, a repeat on 10-25 at 03:00), and the rule that a time already past is sent at once.
struct LocalSendTimeTests {
    let paris = TimeZone(identifier: "Europe/Paris")!

    func wall(_ text: String) throws -> LocalSendTime.WallTime {
        try #require(LocalSendTime.wallTime(text))
    }

    func utc(_ text: String) throws -> Date { try #require(RFC3339.date(text)) }

    @Test func anOrdinaryDayTakesTheZonesOffset() throws {
        #expect(LocalSendTime.instant(try wall("2026-12-24T09:00:00"), in: paris) == (try utc("2026-12-24T08:00:00Z")))
        #expect(LocalSendTime.instant(try wall("2026-07-14T09:00"), in: paris) == (try utc("2026-07-14T07:00:00Z")))
    }

    @Test func aTimeInTheSpringGapMovesForwardByTheGap() throws {
        // 02:30 does not exist on 2026-03-29 in Paris: it is taken as 02:30 +01:00, 03:30 CEST.
        #expect(LocalSendTime.instant(try wall("2026-03-29T02:30:00"), in: paris) == (try utc("2026-03-29T01:30:00Z")))
        #expect(LocalSendTime.instant(try wall("2026-03-29T03:30:00"), in: paris) == (try utc("2026-03-29T01:30:00Z")))
    }

    @Test func aRepeatedTimeInAutumnIsItsFirstOccurrence() throws {
        // 02:30 happens twice on 2026-10-25 in Paris (CEST, then CET): the first, 00:30Z.
        #expect(LocalSendTime.instant(try wall("2026-10-25T02:30:00"), in: paris) == (try utc("2026-10-25T00:30:00Z")))
        #expect(LocalSendTime.instant(try wall("2026-10-25T03:30:00"), in: paris) == (try utc("2026-10-25T02:30:00Z")))
    }

    @Test func aTimeAlreadyPastIsSentAtOnce() throws {
        let now = try utc("2026-12-24T10:00:00Z")
        #expect(LocalSendTime.resolve(try wall("2026-12-24T09:00:00"), in: paris, notBefore: now) == now)
        let ahead = LocalSendTime.resolve(try wall("2026-12-24T12:00:00"), in: paris, notBefore: now)
        #expect(ahead == (try utc("2026-12-24T11:00:00Z")))
    }

    @Test func onlyWallClockTimesAreRead() {
        for text in ["2026-12-24T09:00:00Z", "2026-12-24 09:00", "2026-02-30T09:00:00", "2026-12-24T24:00:00", "x"] {
            #expect(LocalSendTime.wallTime(text) == nil, "\(text)")
        }
    }

    @Test func theIdleWaitEndsAtTheNextDueTime() {
        let now = Date(timeIntervalSince1970: 1000)
        let poll = Duration.seconds(2)
        #expect(DeliveryWorkers.idleTimeout(nextDue: nil, now: now, pollInterval: poll) == poll)
        #expect(DeliveryWorkers.idleTimeout(nextDue: now + 0.5, now: now, pollInterval: poll) == .milliseconds(500))
        #expect(DeliveryWorkers.idleTimeout(nextDue: now + 3600, now: now, pollInterval: poll) == poll)
        #expect(
            DeliveryWorkers.idleTimeout(nextDue: now - 1, now: now, pollInterval: poll) == DeliveryWorkers.busyRetry)
    }

    @Test func quietHoursEndOnTheRightLocalDay() throws {
        let night = QuietHours(start: 22 * 60, end: 8 * 60)
        // 23:00 and 03:00 in Paris (UTC+1 in December): held until 08:00 (07:00Z) the next morning / same day.
        #expect(
            QuietHours.nextAllowed(after: try utc("2026-12-01T22:00:00Z"), in: paris, quiet: night)
                == (try utc("2026-12-02T07:00:00Z")))
        #expect(
            QuietHours.nextAllowed(after: try utc("2026-12-02T02:00:00Z"), in: paris, quiet: night)
                == (try utc("2026-12-02T07:00:00Z")))
        #expect(QuietHours.nextAllowed(after: try utc("2026-12-02T12:00:00Z"), in: paris, quiet: night) == nil)
        let afternoon = QuietHours(start: 13 * 60, end: 14 * 60)
        #expect(
            QuietHours.nextAllowed(after: try utc("2026-12-02T12:30:00Z"), in: paris, quiet: afternoon)
                == (try utc("2026-12-02T13:00:00Z")))
        #expect(QuietHours.nextAllowed(after: Date(), in: paris, quiet: QuietHours(start: 60, end: 60)) == nil)
        // The night of the autumn change: 23:00 CEST on 10-24 is held until 08:00 CET on 10-25.
        #expect(
            QuietHours.nextAllowed(after: try utc("2026-10-24T21:00:00Z"), in: paris, quiet: night)
                == (try utc("2026-10-25T07:00:00Z")))
        #expect(QuietHours.minute("07:30") == 450)
        #expect(QuietHours.minute("7:30") == nil)
    }
}
