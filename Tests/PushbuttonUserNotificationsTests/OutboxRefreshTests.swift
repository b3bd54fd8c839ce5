import Foundation
import Pushbutton
import PushbuttonOutbox
import PushbuttonReceiver
import PushbuttonReceiverTesting
import PushbuttonSupport
import PushbuttonTestSupport
import PushbuttonUserNotifications
import Testing

#if !canImport(UserNotifications)
    import UserNotificationsStandIn
#endif

/// The outbox drained in a `BGTaskScheduler` task: registered, run by the (stand-in) system, stopped by the task's
/// expiration, completed once, rescheduled.
@Suite struct OutboxRefreshTests {
    /// A sender that answers 200, or never answers until its task is cancelled.
    final class Sender: OutboxSender {
        let hangs: Bool
        let sent = Locked(0)
        init(hangs: Bool) { self.hangs = hangs }

        func send(_ request: OutgoingRequest) async throws -> Int {
            sent.withLock { $0 += 1 }
            if hangs {
                let (never, _) = AsyncStream.makeStream(of: Void.self)
                for await _ in never {}  // ends when the task is cancelled
                throw CancellationError()
            }
            return 200
        }
    }

    struct Fixture {
        let outbox: Outbox
        let directory: URL
        let identifier = "com.example.chatter.outbox.\(UUID().uuidString)"  // tests share BGTaskScheduler.shared
        let outcomes = Locked([ImmediateDelivery.Attempt]())

        init() throws {
            directory = FileManager.default.temporaryDirectory.appendingPathComponent("pb-bg-\(UUID().uuidString)")
            outbox = try Outbox(path: directory.appendingPathComponent("taps.sqlite").path)
        }

        func refresh(_ sender: Sender, clock: ManualClock) -> OutboxRefresh {
            let refresh = OutboxRefresh(
                identifier: identifier, outbox: outbox, sender: sender, scheduler: SystemBackgroundTasks(),
                budget: .seconds(25), clock: clock, now: { Date(timeIntervalSince1970: 1_000_000) })
            refresh.observe { outcome in outcomes.withLock { $0.append(outcome) } }
            return refresh
        }

        func enqueue() async throws {
            try await outbox.deliver(
                BackendRequest(
                    url: "https://api.example.com/like", idempotencyKey: "like-1", notificationIdentifier: "n1",
                    actionIdentifier: "like"))
        }
    }

    @Test func aRunDrainsTheOutboxCompletesOnceAndSchedulesTheNext() async throws {
        let fixture = try Fixture()
        defer { try? FileManager.default.removeItem(at: fixture.directory) }
        try await fixture.enqueue()
        let sender = Sender(hangs: false)
        let refresh = fixture.refresh(sender, clock: ManualClock())  // never moves: no deadline involved

        #expect(refresh.register())
        let task = try #require(BGTaskScheduler.shared.standInLaunch(fixture.identifier))
        await yieldUntil { !fixture.outcomes.withLock { $0 }.isEmpty }

        #expect(sender.sent.withLock { $0 } == 1)
        #expect(try await fixture.outbox.status().delivered == 1)
        #expect(task.standInCompletions == [true])
        let next = BGTaskScheduler.shared.standInSubmitted.filter { $0.identifier == fixture.identifier }
        #expect(next.count == 1)
        #expect(next.first is BGAppRefreshTaskRequest)
        #expect(next.first?.earliestBeginDate == Date(timeIntervalSince1970: 1_000_000 + 15 * 60))
    }

    @Test func theExpirationHandlerStopsTheDrainAndCompletesTheTaskOnce() async throws {
        let fixture = try Fixture()
        defer { try? FileManager.default.removeItem(at: fixture.directory) }
        try await fixture.enqueue()
        let sender = Sender(hangs: true)
        let refresh = fixture.refresh(sender, clock: ManualClock())

        #expect(refresh.register())
        let task = try #require(BGTaskScheduler.shared.standInLaunch(fixture.identifier))
        await yieldUntil { sender.sent.withLock { $0 } == 1 && task.expirationHandler != nil }
        task.standInExpire()
        await yieldUntil { !fixture.outcomes.withLock { $0 }.isEmpty }

        #expect(fixture.outcomes.withLock { $0 } == [.expired])
        #expect(task.standInCompletions == [false])
        let status = try await fixture.outbox.status()
        #expect(status.delivered == 0)
        #expect(status.pending + status.inFlight == 1)  // the next run sends it
        #expect(BGTaskScheduler.shared.standInSubmitted.contains { $0.identifier == fixture.identifier })
    }

    @Test func theBudgetStopsARunTheSystemLetsGoOn() async throws {
        let fixture = try Fixture()
        defer { try? FileManager.default.removeItem(at: fixture.directory) }
        try await fixture.enqueue()
        let clock = ManualClock()
        let refresh = fixture.refresh(Sender(hangs: true), clock: clock)

        #expect(refresh.register())
        let task = try #require(BGTaskScheduler.shared.standInLaunch(fixture.identifier))
        await clock.waitForSleepers()
        clock.advance(by: .seconds(25))
        await yieldUntil { !fixture.outcomes.withLock { $0 }.isEmpty }

        #expect(fixture.outcomes.withLock { $0 } == [.outOfTime])
        task.standInExpire()  // the system's expiration afterwards changes nothing
        #expect(task.standInCompletions == [false])
    }

    @Test func anIdentifierTheInfoPlistDoesNotListIsRefused() throws {
        let fixture = try Fixture()
        defer { try? FileManager.default.removeItem(at: fixture.directory) }
        let scheduler = BGTaskScheduler()
        scheduler.standInPermittedIdentifiers = []
        #expect(!scheduler.register(forTaskWithIdentifier: fixture.identifier, using: nil) { _ in })
        #expect(throws: (any Error).self) {
            try scheduler.submit(BGAppRefreshTaskRequest(identifier: fixture.identifier))
        }
    }
}
