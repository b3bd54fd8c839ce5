import Foundation
import Pushbutton
import PushbuttonAPNs
import PushbuttonAPNsMock
import Testing

/// A failed notification's last cause is typed: callers branch on its kind, not on its text.
@Suite(.timeLimit(.minutes(2))) struct FailureCauseTests {
    @Test func retriedAnswersThatRanOutAreAServerAnswer() async throws {
        let fixture = try await MockFixture(faults: try FaultPlan(parsing: "500=1"))
        let client = try fixture.client(policy: RetryPolicy(maximumAttempts: 2, baseBackoff: .milliseconds(1)))
        let result = await client.send(try MockFixture.notification())
        guard case .failed(_, 2, let cause) = result else {
            Issue.record("expected a failure after two 500s, got \(result)")
            return
        }
        #expect(cause.kind == .serverAnswer && cause.message.hasPrefix("500"))
        await client.shutdown()
        await fixture.stop()
    }

    @Test func aNotificationAfterShutdownFailsAsShutDown() async throws {
        let fixture = try await MockFixture()
        let client = try fixture.client()
        await client.shutdown()
        let result = await client.send(try MockFixture.notification())
        guard case .failed(_, _, let cause) = result else {
            Issue.record("expected a failure after shutdown, got \(result)")
            return
        }
        #expect(cause.kind == .shutDown)
        await fixture.stop()
    }
}
