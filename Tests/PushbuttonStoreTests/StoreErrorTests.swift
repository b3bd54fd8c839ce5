import Foundation
import Testing

@testable import PushbuttonStore

/// `StoreError`'s code: the database's failures are `.database`, and a code this version does not know is
/// kept as it came.
struct StoreErrorTests {
    @Test func aFailedStatementIsADatabaseError() throws {
        let directory = NSTemporaryDirectory() + "pushbutton-store-error-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = try SQLGatewayStore.sqlite(path: directory + "/gateway.db")
        let error = #expect(throws: StoreError.self) {
            try store.with { connection throws(StoreError) in try connection.query("SELECT nothing FROM nowhere") }
        }
        #expect(error?.code == .database)
        #expect(error?.description.contains("nowhere") == true)
    }

    @Test func codesAreExtensible() {
        #expect(StoreError.Code(rawValue: "newer-schema") == .newerSchema)
        #expect(StoreError.Code(rawValue: "inconsistent") == .inconsistent)
        let later = StoreError.Code(rawValue: "a-later-code")
        #expect(later != .database && later.description == "a-later-code")
        #expect(StoreError("the message", context: "the step").code == .database)
        #expect(StoreError(.inconsistent, "gone", context: "reading").description == "reading: gone")
    }
}
