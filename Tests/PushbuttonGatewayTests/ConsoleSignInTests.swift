import Foundation
import PushbuttonSupport
import Testing

@testable import PushbuttonGateway

/// The console's sign-in against a hostile browser and a guessing client, in process (the red-team's L8, L9):
/// a cross-site form is refused by `Origin` when the browser sends no `Sec-Fetch-Site`, wrong keys from one
/// address are throttled, and the sessions and the throttle's addresses stay bounded.
@Suite(.timeLimit(.minutes(2))) struct ConsoleSignInTests {
    typealias F = GatewayFixture

    /// A clock the test moves.
    final class TestTime: Sendable {
        let now = Locked(Date(timeIntervalSince1970: 1_800_000_000))
        func advance(_ seconds: TimeInterval) { now.withLock { $0 += seconds } }
    }

    static func signIn(
        _ router: Router, key: String = F.secret, headers: [String: String] = [:],
        authority: String = "gw.example:8443",
        peer: String = "203.0.113.7"
    ) -> HTTPResponse {
        router.handle(
            HTTPRequest(
                method: "POST", path: "/console/login",
                headers: headers.merging(["content-type": "application/x-www-form-urlencoded"]) { $1 },
                body: Array("key=\(key)".utf8), authority: authority, peer: peer))
    }

    @Test func aCrossSiteSignInIsRefusedByOriginWhenTheBrowserSendsNoFetchMetadata() throws {
        let fixture = try RouterClient()
        let router = fixture.router
        let refused = Self.signIn(router, headers: ["origin": "https://evil.example"])
        #expect(refused.status == 403 && refused.headers.allSatisfy { $0.name != "set-cookie" })
        #expect(Self.signIn(router, headers: ["origin": "null"]).status == 403)
        #expect(Self.signIn(router, headers: ["origin": "https://gw.example:9443"]).status == 403)
        #expect(Self.signIn(router, headers: ["sec-fetch-site": "cross-site"]).status == 403)
        // The console's own page, a script without Origin, and a reverse proxy that passes X-Forwarded-Host.
        #expect(Self.signIn(router, headers: ["origin": "https://gw.example:8443"]).status == 303)
        #expect(Self.signIn(router).status == 303)
        let proxied = Self.signIn(
            router, headers: ["origin": "https://console.example", "x-forwarded-host": "console.example"],
            authority: "127.0.0.1:8443")
        #expect(proxied.status == 303)
    }

    @Test func originsMatchByHostAndPortWithTheSchemesDefault() {
        #expect(ConsoleOrigin.matches(origin: "https://gw.example", authority: "gw.example"))
        #expect(ConsoleOrigin.matches(origin: "https://gw.example", authority: "GW.example:443"))
        #expect(ConsoleOrigin.matches(origin: "http://127.0.0.1:8080", authority: "127.0.0.1:8080"))
        #expect(ConsoleOrigin.matches(origin: "https://[::1]:8443", authority: "[::1]:8443"))
        #expect(!ConsoleOrigin.matches(origin: "https://gw.example", authority: "gw.example:8443"))
        #expect(!ConsoleOrigin.matches(origin: "http://gw.example", authority: "gw.example:443"))
        #expect(!ConsoleOrigin.matches(origin: "https://gw.example.evil.example", authority: "gw.example"))
        #expect(!ConsoleOrigin.matches(origin: "null", authority: "gw.example"))
        #expect(!ConsoleOrigin.matches(origin: "file://", authority: "gw.example"))
    }

    @Test func wrongKeysFromOneAddressAreThrottledAndOthersAreNot() throws {
        let time = TestTime()
        let fixture = try RouterClient(now: { time.now.withLock { $0 } })
        let router = fixture.router
        for _ in 0..<SignInThrottle.maximumFailures {
            #expect(Self.signIn(router, key: "pb_sk_guess").status == 401)
        }
        let throttled = Self.signIn(router, key: F.secret)
        #expect(throttled.status == 429)
        #expect(throttled.headers.contains { $0.name == "retry-after" && $0.value == "60" })
        #expect(String(decoding: throttled.body, as: UTF8.self).contains("Too many wrong keys"))
        // Another address signs in; the throttled one may again once the window has passed.
        #expect(Self.signIn(router, peer: "198.51.100.1").status == 303)
        time.advance(30)
        #expect(Self.signIn(router).headers.contains { $0.name == "retry-after" && $0.value == "30" })
        time.advance(31)
        #expect(Self.signIn(router).status == 303)
        // A right key forgets the address's earlier failures.
        for _ in 0..<(SignInThrottle.maximumFailures - 1) { _ = Self.signIn(router, key: "pb_sk_guess") }
        #expect(Self.signIn(router).status == 303)
        for _ in 0..<(SignInThrottle.maximumFailures - 1) { _ = Self.signIn(router, key: "pb_sk_guess") }
        #expect(Self.signIn(router).status == 303)
    }

    @Test func theThrottleAndTheSessionsStayBounded() {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let throttle = SignInThrottle(capacity: 3)
        for address in 0..<50 { throttle.failed("192.0.2.\(address)", now: now + Double(address)) }
        #expect(throttle.followed == 3)
        let sessions = ConsoleSessions(capacity: 2)
        let first = sessions.create(app: "chat", now: now)
        let second = sessions.create(app: "chat", now: now + 1)
        let third = sessions.create(app: "chat", now: now + 2)
        #expect(sessions.count == 2)
        // The session closest to expiring made room.
        #expect(sessions.session(first.id, now: now + 3) == nil)
        #expect(sessions.session(second.id, now: now + 3) != nil && sessions.session(third.id, now: now + 3) != nil)
    }
}
