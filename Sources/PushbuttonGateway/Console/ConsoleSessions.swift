import Foundation
import PushbuttonSupport

/// The console's sessions, in this process's memory: a random id (the cookie) to a ``ConsoleSession``. A
/// restart signs everyone out; with several gateway processes each keeps its own, so a load balancer in front
/// of them must keep a console user on one process.
final class ConsoleSessions: Sendable {
    /// How long a session lasts without use.
    static let idleLifetime: TimeInterval = 8 * 3600
    /// The most sessions kept: past it, a sign-in ends the session closest to expiring, so signing in again and
    /// again cannot grow the map without bound.
    static let maximumSessions = 10_000
    private let sessions = Locked<[String: ConsoleSession]>([:])
    private let capacity: Int

    init(capacity: Int = ConsoleSessions.maximumSessions) { self.capacity = capacity }

    /// How many sessions are kept.
    var count: Int { sessions.withLock { $0.count } }

    /// 32 random bytes, hex.
    static func randomToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return Digest.hex((0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) })
    }

    /// Starts a session for `app`: its id (for the cookie) and the session.
    func create(app: String, now: Date) -> (id: String, session: ConsoleSession) {
        let id = Self.randomToken()
        let session = ConsoleSession(app: app, csrfToken: Self.randomToken(), expires: now + Self.idleLifetime)
        sessions.withLock { all in
            all = all.filter { $0.value.expires > now }
            if all.count >= capacity, let soonest = all.min(by: { $0.value.expires < $1.value.expires }) {
                all[soonest.key] = nil
            }
            all[id] = session
        }
        return (id, session)
    }

    /// The live session with this id, its lifetime renewed.
    func session(_ id: String, now: Date) -> ConsoleSession? {
        sessions.withLock { all in
            guard var session = all[id] else { return nil }
            guard session.expires > now else {
                all[id] = nil
                return nil
            }
            session.expires = now + Self.idleLifetime
            all[id] = session
            return session
        }
    }

    func end(_ id: String) {
        _ = sessions.withLock { $0.removeValue(forKey: id) }
    }
}
