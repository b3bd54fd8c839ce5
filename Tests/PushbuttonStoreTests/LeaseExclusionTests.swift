import Foundation
import Pushbutton
import PushbuttonStore
import Testing

/// A lease passes over the apps it is told to (those whose APNs the workers cannot reach), on both stores.
@Suite(.timeLimit(.minutes(3)))
struct LeaseExclusionTests {
    static let t0 = Date(timeIntervalSince1970: 1_800_000_000)

    @Test(arguments: StoreBackend.allCases)
    func aLeasePassesOverExcludedApps(_ backend: StoreBackend) async throws {
        let store = try await backend.makeStore()
        for (id, app, base) in [("o1", "other", 0x1000), ("c1", "chat", 0x2000)] {
            _ = try store.enqueue(
                NotificationSpec(
                    id: id, app: app, kind: .notification, topic: "com.example.\(app)", createdAt: Self.t0),
                deliveries: (0..<3).map {
                    NewDelivery(
                        token: String(format: "%064x", base + $0), apnsID: "\(id)-\($0)", payload: [0x7B, 0x7D])
                }, idempotency: nil, now: Self.t0)
        }
        let first = try store.lease(limit: 10, duration: 30, now: Self.t0, excludingApps: ["other"])
        #expect(first.map(\.app) == ["chat", "chat", "chat"])
        #expect(try store.lease(limit: 10, duration: 30, now: Self.t0, excludingApps: ["other", "chat"]).isEmpty)
        let rest = try store.lease(limit: 10, duration: 30, now: Self.t0)
        #expect(rest.map(\.app) == ["other", "other", "other"])
    }
}
