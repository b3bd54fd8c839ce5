import Foundation
import PushbuttonAPNs
import Testing

@testable import PushbuttonAPNsMock

/// Every validation rule, with the status and reason APNs answers.
@Suite struct RequestValidatorTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)
    static let key = try! P256PrivateKey.generate()
    static let otherKey = try! P256PrivateKey.generate()

    let registry = DeviceRegistry()
    let validator: RequestValidator

    init() throws {
        let verifier = ProviderTokenVerifier(keys: [
            try MockProviderKey(
                keyID: "KEY1234567", teamID: "TEAM123456", privateKey: Self.key, topics: ["com.example.app"]),
            try MockProviderKey(keyID: "KEYOTHER00", teamID: "TEAMOTHER0", privateKey: Self.otherKey),
        ])
        validator = RequestValidator(verifier: verifier, registry: registry)
    }

    static func bearer(
        key: P256PrivateKey = key, keyID: String = "KEY1234567", teamID: String = "TEAM123456", issuedAt: Date = now
    ) throws -> String {
        "bearer " + (try ProviderToken(key: key, keyID: keyID, teamID: teamID, issuedAt: issuedAt)).value
    }

    static func request(
        method: String = "POST", path: String = "/3/device/" + String(repeating: "ab", count: 32),
        headers: [(String, String)]? = nil, removing: Set<String> = [], extra: [(String, String)] = [],
        body: String = #"{"aps":{"alert":"hi"}}"#
    ) throws -> MockRequest {
        var all =
            try headers ?? [
                ("authorization", bearer()), ("apns-topic", "com.example.app"), ("apns-push-type", "alert"),
                ("apns-id", "4f1a7c2e-0000-4000-8000-000000000001"), ("apns-priority", "10"),
            ]
        all.removeAll { removing.contains($0.0) }
        all += extra
        return MockRequest(method: method, path: path, headers: all.map { ($0.0, $0.1) }, body: Array(body.utf8))
    }

    func verdict(_ request: MockRequest, now: Date = RequestValidatorTests.now) -> MockResponse {
        var auth = ConnectionAuthState()
        return validator.validate(request, auth: &auth, now: now)
    }

    func reason(_ request: MockRequest) -> String {
        let response = verdict(request)
        return "\(response.status) \(response.reason ?? "")"
    }

    @Test func aValidRequestIsAccepted() throws {
        #expect(verdict(try Self.request()) == .accepted)
    }

    @Test func requestLineRules() throws {
        #expect(reason(try Self.request(method: "GET")) == "405 MethodNotAllowed")
        #expect(reason(try Self.request(path: "/3/devices/abc")) == "404 BadPath")
        #expect(reason(try Self.request(path: "/3/device/")) == "400 MissingDeviceToken")
        #expect(reason(try Self.request(path: "/3/device/1234")) == "400 BadDeviceToken")
        #expect(
            reason(try Self.request(path: "/3/device/" + String(repeating: "zz", count: 32))) == "400 BadDeviceToken")
    }

    @Test func headerFormRules() throws {
        #expect(reason(try Self.request(extra: [("apns-topic", "com.example.app")])) == "400 DuplicateHeaders")
        #expect(
            reason(try Self.request(removing: ["apns-id"], extra: [("apns-id", "not-a-uuid")])) == "400 BadMessageId")
        #expect(verdict(try Self.request(removing: ["apns-id"])) == .accepted)  // APNs generates one
    }

    @Test func providerTokenRules() throws {
        #expect(reason(try Self.request(removing: ["authorization"])) == "403 MissingProviderToken")
        #expect(
            reason(try Self.request(removing: ["authorization"], extra: [("authorization", "bearer abc.def.ghi")]))
                == "403 InvalidProviderToken")
        let unknownKey = try Self.bearer(key: Self.otherKey, keyID: "KEYUNKNOWN")
        #expect(
            reason(try Self.request(removing: ["authorization"], extra: [("authorization", unknownKey)]))
                == "403 InvalidProviderToken")
        let wrongSigner = try Self.bearer(key: Self.otherKey)
        #expect(
            reason(try Self.request(removing: ["authorization"], extra: [("authorization", wrongSigner)]))
                == "403 InvalidProviderToken")
        let wrongTeam = try Self.bearer(teamID: "TEAMOTHER0")
        #expect(
            reason(try Self.request(removing: ["authorization"], extra: [("authorization", wrongTeam)]))
                == "403 UnrelatedKeyIdInToken")
        let old = try Self.bearer(issuedAt: Self.now.addingTimeInterval(-3601))
        #expect(
            reason(try Self.request(removing: ["authorization"], extra: [("authorization", old)]))
                == "403 ExpiredProviderToken")
        let future = try Self.bearer(issuedAt: Self.now.addingTimeInterval(600))
        #expect(
            reason(try Self.request(removing: ["authorization"], extra: [("authorization", future)]))
                == "403 InvalidProviderToken")
    }

    @Test func aConnectionServesOneTeamAndLimitsTokenChanges() throws {
        var auth = ConnectionAuthState()
        let first = try Self.request()
        #expect(validator.validate(first, auth: &auth, now: Self.now) == .accepted)
        #expect(auth.hasValidToken)
        // A new token a minute later: minted per request, which APNs answers with 429.
        let minted = try Self.bearer(issuedAt: Self.now.addingTimeInterval(60))
        let second = try Self.request(removing: ["authorization"], extra: [("authorization", minted)])
        let tooSoon = validator.validate(second, auth: &auth, now: Self.now.addingTimeInterval(60))
        #expect(tooSoon == MockResponse(status: 429, reason: "TooManyProviderTokenUpdates"))
        // Twenty minutes later the change is fine.
        let later = validator.validate(second, auth: &auth, now: Self.now.addingTimeInterval(21 * 60))
        #expect(later == .accepted)
        // Another team's token on the same connection is refused.
        let otherTeam = try Self.bearer(
            key: Self.otherKey, keyID: "KEYOTHER00", teamID: "TEAMOTHER0", issuedAt: Self.now)
        let third = try Self.request(removing: ["authorization"], extra: [("authorization", otherTeam)])
        #expect(
            validator.validate(third, auth: &auth, now: Self.now.addingTimeInterval(50 * 60)).reason
                == "InvalidProviderToken")
    }

    @Test func aTokenChangeAfterExpiryIsAllowedAtOnce() throws {
        var auth = ConnectionAuthState()
        let old = try Self.bearer(issuedAt: Self.now.addingTimeInterval(-3500))
        _ = validator.validate(
            try Self.request(removing: ["authorization"], extra: [("authorization", old)]), auth: &auth, now: Self.now)
        let expiredNow = Self.now.addingTimeInterval(200)
        let fresh = try Self.bearer(issuedAt: expiredNow)
        let refreshed = try Self.request(removing: ["authorization"], extra: [("authorization", fresh)])
        #expect(validator.validate(refreshed, auth: &auth, now: expiredNow) == .accepted)
    }

    @Test func topicRules() throws {
        #expect(reason(try Self.request(removing: ["apns-topic"])) == "400 MissingTopic")
        #expect(
            reason(try Self.request(removing: ["apns-topic"], extra: [("apns-topic", "com.other.app")]))
                == "400 TopicDisallowed")
        #expect(
            reason(try Self.request(removing: ["apns-push-type"], extra: [("apns-push-type", "banner")]))
                == "400 InvalidPushType")
        let voip = try Self.request(removing: ["apns-push-type"], extra: [("apns-push-type", "voip")])
        #expect(reason(voip) == "400 DeviceTokenNotForTopic")  // the VoIP token is not the app's topic
        let voipTopic = try Self.request(
            removing: ["apns-push-type", "apns-topic"],
            extra: [("apns-push-type", "voip"), ("apns-topic", "com.example.app.voip")])
        #expect(verdict(voipTopic) == .accepted)
    }

    @Test func deliveryHeaderRules() throws {
        #expect(
            reason(try Self.request(removing: ["apns-priority"], extra: [("apns-priority", "7")])) == "400 BadPriority")
        let background = try Self.request(removing: ["apns-push-type"], extra: [("apns-push-type", "background")])
        #expect(reason(background) == "400 BadPriority")
        #expect(reason(try Self.request(extra: [("apns-expiration", "tomorrow")])) == "400 BadExpirationDate")
        #expect(verdict(try Self.request(extra: [("apns-expiration", "0")])) == .accepted)
        #expect(
            reason(try Self.request(extra: [("apns-collapse-id", String(repeating: "c", count: 65))]))
                == "400 BadCollapseId")
        #expect(
            verdict(try Self.request(extra: [("apns-collapse-id", String(repeating: "c", count: 64))])) == .accepted)
    }

    @Test func payloadRules() throws {
        #expect(reason(try Self.request(body: "")) == "400 PayloadEmpty")
        #expect(reason(try Self.request(body: #"{"aps":"#)) == "400 BadPayload")
        #expect(reason(try Self.request(body: "[1,2]")) == "400 BadPayload")
        let big = #"{"aps":{"alert":""# + String(repeating: "x", count: 4080) + #""}}"#
        #expect(reason(try Self.request(body: big)) == "413 PayloadTooLarge")
        let voip = try Self.request(
            removing: ["apns-push-type", "apns-topic"],
            extra: [("apns-push-type", "voip"), ("apns-topic", "com.example.app.voip")], body: big)
        #expect(verdict(voip) == .accepted)  // VoIP allows 5120 bytes
    }

    @Test func theDeviceRegistryDecidesPerToken() throws {
        let token = String(repeating: "ab", count: 32)
        #expect(verdict(try Self.request()) == .accepted)  // unknown tokens are fine until one is registered
        registry.register(token: String(repeating: "cd", count: 32), topic: "com.example.app")
        #expect(reason(try Self.request()) == "400 BadDeviceToken")
        registry.register(token: token, topic: "com.example.other")
        #expect(reason(try Self.request()) == "400 DeviceTokenNotForTopic")
        registry.register(token: token, topic: "com.example.app")
        #expect(verdict(try Self.request()) == .accepted)
        registry.unregister(token: token, at: Date(timeIntervalSince1970: 1_700_000_000.25))
        let gone = verdict(try Self.request())
        #expect(gone == MockResponse(status: 410, reason: "Unregistered", timestamp: 1_700_000_000_250))
        #expect(String(decoding: gone.body, as: UTF8.self) == #"{"reason":"Unregistered","timestamp":1700000000250}"#)
        registry.markBad(token: token)
        #expect(reason(try Self.request()) == "400 BadDeviceToken")
    }

    @Test func certificateAuthenticationNeedsNoToken() throws {
        var lenient = validator
        lenient.requiresProviderToken = false
        var auth = ConnectionAuthState()
        #expect(
            lenient.validate(try Self.request(removing: ["authorization"]), auth: &auth, now: Self.now) == .accepted)
    }

    @Test func faultPlansParseAndDrawDeterministically() throws {
        let plan = try FaultPlan(parsing: "429=0.1,500=0.1,503=0.1,refuse=0.1,drop=0.05,delay=0.1,silence=0.05,seed=7")
        #expect(plan.tooManyRequestsRate == 0.1 && plan.seed == 7 && plan.isEnabled)
        var first = FaultInjector(plan: plan)
        var second = FaultInjector(plan: plan)
        let drawsA = (0..<1000).map { _ in first.draw() }
        let drawsB = (0..<1000).map { _ in second.draw() }
        #expect(drawsA == drawsB)
        let faulted = drawsA.compactMap { $0 }.count
        #expect((500...700).contains(faulted))  // 60% of draws, give or take
        #expect(throws: FaultPlanError.self) { try FaultPlan(parsing: "429=2") }
        #expect(throws: FaultPlanError.self) { try FaultPlan(parsing: "teapot=0.1") }
        #expect(!FaultPlan.none.isEnabled)
    }
}
