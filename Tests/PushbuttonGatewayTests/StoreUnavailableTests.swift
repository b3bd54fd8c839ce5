import Foundation
import Pushbutton
import PushbuttonStore
import Testing

@testable import PushbuttonGateway

/// A store failure reaches clients as 503 "the store is unavailable": the database's message (SQL, table
/// names, a host) stays in the gateway's log.
@Suite(.timeLimit(.minutes(3)))
struct StoreUnavailableTests {
    static let failure = StoreError(
        #"relation "notifications" does not exist"#, context: "SELECT id, app FROM notifications WHERE id = ?")

    @Test func theAPIAndReadyzAnswer503WithoutTheDatabasesMessage() async throws {
        let directory = NSTemporaryDirectory() + "pushbutton-unavailable-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = UnavailableReadsStore(
            try SQLGatewayStore.sqlite(path: directory + "/gateway.db"), failure: Self.failure)
        let fixture = try await GatewayFixture(store: store, workers: 0)
        defer { Task { await fixture.stop() } }

        let ready = try await fixture.request("GET", "/readyz", key: nil)
        #expect(ready.status == 503)
        #expect(ready.body == "the store is unavailable\n")

        let read = try await fixture.request("GET", "/v1/notifications/n-1")
        #expect(read.status == 503)
        let error = read.json?.objectValue?["error"]?.objectValue
        #expect(error?["code"]?.stringValue == "store_unavailable")
        #expect(error?["message"]?.stringValue == "the store is unavailable")
        for leaked in ["relation", "SELECT", "does not exist"] {
            #expect(!ready.body.contains(leaked) && !read.body.contains(leaked))
        }
    }

    @Test func theGatewayErrorKeepsTheStoresMessageOutOfItsBody() {
        let error = GatewayError.store(Self.failure)
        #expect(error.status == 503 && error.code == "store_unavailable")
        #expect(error.message == "the store is unavailable")
        let body = String(decoding: error.response.body, as: UTF8.self)
        #expect(!body.contains("relation") && !body.contains("SELECT"))
    }
}
