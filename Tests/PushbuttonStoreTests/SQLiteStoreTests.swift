import Foundation
import PushbuttonStore
import Testing

@Suite(.timeLimit(.minutes(1)))
struct SQLiteStoreTests {
    @Test func theDatabaseFileIsPrivate() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pb-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = directory.appendingPathComponent("gateway.db").path
        let store = try SQLGatewayStore.sqlite(path: path)
        try store.ping()
        let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        // Opening it again applies nothing new and keeps what is there.
        _ = try store.enqueue(
            NotificationSpec(id: "n1", app: "a", kind: .notification, topic: "t", createdAt: Date()), deliveries: [],
            idempotency: nil, now: Date())
        let reopened = try SQLGatewayStore.sqlite(path: path)
        #expect(try reopened.notification(id: "n1", limit: 0, after: 0) != nil)
    }
}
