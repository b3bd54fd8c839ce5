import PushbuttonSupport
import Testing

@testable import PushbuttonStore

/// Issue 34: commits of intakes that overlap wake the workers once for the group (SQLite has one writer: a
/// lease per request would compete with the intake itself), a lone commit at once, and a steady stream of
/// overlapping intakes still every ``CommittedWork/commitsPerWake`` commits.
struct CommittedWorkTests {
    @Test func aLoneIntakeWakesAtItsEnd() {
        let work = CommittedWork()
        let wakes = Locked(0)
        let observation = work.observe { wakes.withLock { $0 += 1 } }
        defer { observation.cancel() }
        work.intakeBegan()
        work.committed()
        #expect(wakes.withLock { $0 } == 0, "the intake is still under way")
        work.intakeEnded()
        #expect(wakes.withLock { $0 } == 1)
        work.committed()  // a commit outside a counted intake (a campaign page) wakes at once
        #expect(wakes.withLock { $0 } == 2)
    }

    @Test func overlappingIntakesWakeOnceWhenTheLastEnds() {
        let work = CommittedWork()
        let wakes = Locked(0)
        let observation = work.observe { wakes.withLock { $0 += 1 } }
        defer { observation.cancel() }
        for _ in 0..<3 { work.intakeBegan() }
        for _ in 0..<3 {
            work.committed()
            work.intakeEnded()
        }
        #expect(wakes.withLock { $0 } == 1)
        #expect(work.wakes.announcements == 1 && work.wakes.commits == 3)
    }

    @Test func aFailedIntakeWakesNoOneButEndsTheGroup() {
        let work = CommittedWork()
        let wakes = Locked(0)
        let observation = work.observe { wakes.withLock { $0 += 1 } }
        defer { observation.cancel() }
        work.intakeBegan()
        work.intakeBegan()
        work.committed()
        work.intakeEnded()
        work.intakeEnded()  // rolled back: nothing of its own, but the group's commit is announced now
        #expect(wakes.withLock { $0 } == 1)
        work.intakeBegan()
        work.intakeEnded()
        #expect(wakes.withLock { $0 } == 1, "nothing committed")
    }

    @Test func aSteadyStreamStillWakesEveryFewCommits() {
        let work = CommittedWork()
        let wakes = Locked(0)
        let observation = work.observe { wakes.withLock { $0 += 1 } }
        defer { observation.cancel() }
        work.intakeBegan()  // one always under way: the in-flight count never reaches 0
        for _ in 0..<(2 * CommittedWork.commitsPerWake) {
            work.intakeBegan()
            work.committed()
            work.intakeEnded()
        }
        #expect(wakes.withLock { $0 } == 2)
    }
}
