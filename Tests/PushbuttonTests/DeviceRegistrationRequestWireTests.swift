import Foundation
import Pushbutton
import Testing

/// The registration's wire contract: the `PUT /v1/apps/{app}/devices/{token}` body a device writes is what the
/// gateway reads, field by field; the state file devices kept before this type existed still reads.
struct DeviceRegistrationRequestWireTests {
    static let token = String(repeating: "0a", count: 32)
    static let received = Date(timeIntervalSince1970: 1_800_000_000)

    static func read(_ value: JSONValue, maximumTags: Int = .max) -> (DeviceRegistrationRequest?, [Diagnostic]) {
        var diagnostics: [Diagnostic] = []
        let request = DeviceRegistrationRequest.read(
            body: value, token: token, at: .root, receivedAt: received, maximumTags: maximumTags,
            diagnostics: &diagnostics)
        return (request, diagnostics)
    }

    @Test func everyFieldTheDeviceWritesIsTheFieldTheGatewayReads() throws {
        let request = DeviceRegistrationRequest(
            token: Self.token, environment: "sandbox", locale: "fr-FR", appVersion: "2.1", userID: "u_9",
            tags: ["beta", "news"], registeredAt: Date(timeIntervalSince1970: 1_764_585_900.25),
            timeZone: "Europe/Paris")
        let value = try JSONParser.parse(JSONWriter.compact(request.bodyJSON))
        let object = try #require(value.objectValue)
        #expect(Set(object.keys) == Set(DeviceRegistrationRequest.bodyKeys))
        #expect(object["environment"] == "sandbox")
        #expect(object["locale"] == "fr-FR")
        #expect(object["app_version"] == "2.1")
        #expect(object["user_id"] == "u_9")
        #expect(object["tags"] == ["beta", "news"])
        #expect(object["registered_at"] == 1_764_585_900_250)
        #expect(object["time_zone"] == "Europe/Paris")
        let (read, diagnostics) = Self.read(value)
        #expect(diagnostics.isEmpty)
        #expect(read == request)
    }

    @Test func absentOptionalFieldsAreLeftOutAndTheDefaultsApply() throws {
        let request = DeviceRegistrationRequest(token: Self.token, registeredAt: Date(timeIntervalSince1970: 1_000))
        let body = try #require(request.bodyJSON.objectValue)
        #expect(Set(body.keys) == ["environment", "tags", "registered_at"])
        #expect(Self.read(request.bodyJSON).0 == request)
        // An empty body (a backend registering a token) is production, no tags, registered when received.
        let (empty, diagnostics) = Self.read([:])
        #expect(diagnostics.isEmpty)
        #expect(empty == DeviceRegistrationRequest(token: Self.token, registeredAt: Self.received))
    }

    @Test func aMemberTheReaderDoesNotKnowIsIgnored() {
        let (read, diagnostics) = Self.read(["environment": "production", "quiet_hours": ["start": "22:00"], "x": 1])
        #expect(diagnostics.isEmpty)
        #expect(read?.environment == "production")
    }

    /// `.gateway.json` exactly as the outbox wrote it before the shared type (a phone that updates the app keeps it):
    /// it still reads, so an unchanged registration is not sent again.
    @Test func theStateFileAnOlderDeviceKeptStillReads() throws {
        let line = #"""
            {"app_version":"2.0","environment":"production","locale":"fr-FR","registered_at":1764585900250,"tags":["a","b"],"time_zone":"Europe/Paris","token":"0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a0a"}
            """#
        let state = try #require(DeviceRegistrationRequest(stateJSON: try JSONParser.parse(Array(line.utf8))))
        #expect(
            state
                == DeviceRegistrationRequest(
                    token: Self.token, locale: "fr-FR", appVersion: "2.0", tags: ["a", "b"],
                    registeredAt: Date(timeIntervalSince1970: 1_764_585_900.25), timeZone: "Europe/Paris"))
        #expect(JSONWriter.compact(state.stateJSON) == Array(line.utf8))
        #expect(DeviceRegistrationRequest(stateJSON: ["token": "0a"]) == nil)
    }

    @Test func wrongValuesAreReportedWithTheirPaths() {
        let (read, diagnostics) = Self.read([
            "environment": "staging", "registered_at": "now", "locale": 3, "tags": ["ok", 4], "time_zone": "",
        ])
        #expect(read == nil)
        #expect(
            Set(diagnostics.map { "\($0.path) \($0.code)" }) == [
                "environment unknown-value", "registered_at type-mismatch", "locale type-mismatch",
                "tags[1] type-mismatch", "time_zone type-mismatch",
            ])
        let (_, tooMany) = Self.read(["tags": ["a", "b", "c"]], maximumTags: 2)
        #expect(tooMany.map { "\($0.path) \($0.code)" } == ["tags value-range"])
    }
}
