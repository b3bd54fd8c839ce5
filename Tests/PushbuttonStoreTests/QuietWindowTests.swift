import Foundation
import PushbuttonSupport
import Testing

/// ``QuietWindow``'s end across a clock set back: America/New_York repeats 01:00–02:00 on 2026-11-01.
struct QuietWindowTests {
    let newYork = TimeZone(identifier: "America/New_York")!

    /// 22:00–01:30, at 01:15 in the repeated hour (EST, after the first 01:30 EDT has passed): held until the
    /// second 01:30, not "until now" (which a lease would put back at once, again and again, for the hour).
    @Test func aWindowEndingInARepeatedHourEndsAtItsSecondOccurrence() throws {
        let window = QuietWindow(start: 22 * 60, end: 90)
        let secondEnd = Date(timeIntervalSince1970: 1_793_514_600)  // 01:30 EST = 06:30Z
        let firstEnd = secondEnd - 3600  // 01:30 EDT = 05:30Z
        // At 01:15 EST (06:15Z), the first 01:30 has passed.
        #expect(window.nextAllowed(after: secondEnd - 900, in: newYork) == secondEnd)
        // At 01:15 EDT (05:15Z), the first 01:30 is the end.
        #expect(window.nextAllowed(after: firstEnd - 900, in: newYork) == firstEnd)
    }

    /// Outside the window: no hold.
    @Test func outsideTheWindowNothingIsHeld() {
        let window = QuietWindow(start: 22 * 60, end: 8 * 60)
        #expect(window.nextAllowed(after: Date(timeIntervalSince1970: 1_793_550_000), in: newYork) == nil)
    }
}
