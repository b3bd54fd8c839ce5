import Foundation
import Pushbutton
import PushbuttonAPNs

/// Checks one request the way APNs does and picks APNs' status and reason for the first problem found.
struct RequestValidator: Sendable {
    let verifier: ProviderTokenVerifier
    let registry: DeviceRegistry
    /// A token may change on a connection no sooner than this after the previous one (APNs: 20 minutes),
    /// unless the previous one expired.
    var tokenUpdateInterval: TimeInterval = 20 * 60
    /// Tokens older than this are expired (APNs: one hour).
    var maximumTokenAge: TimeInterval = 60 * 60
    /// How far in the future `iat` may lie, for clock skew.
    var allowedClockSkew: TimeInterval = 60
    /// False when clients authenticate with TLS certificates instead of tokens.
    var requiresProviderToken = true
    /// The environment played for client certificates (nil: either).
    var certificateEnvironment: MockAPNsConfiguration.CertificateEnvironment?

    private static let pathPrefix = "/3/device/"
    private static let checkedHeaders: Set<String> = [
        "authorization", "apns-id", "apns-topic", "apns-push-type", "apns-priority", "apns-expiration",
        "apns-collapse-id",
    ]

    func validate(_ request: MockRequest, auth: inout ConnectionAuthState, now: Date) -> MockResponse {
        if let problem = checkRequestLine(request) { return problem }
        if let problem = checkHeaderForm(request) { return problem }
        let token = String(request.path.dropFirst(Self.pathPrefix.count))
        var topics: Set<String>?
        // A connection that authenticated with a client certificate needs no token: its topics are the certificate's.
        let byCertificate = auth.certificateTopics != nil && request.header("authorization") == nil
        if byCertificate, let environment = certificateEnvironment, !auth.certificateEnvironments.isEmpty,
            !auth.certificateEnvironments.contains(environment)
        {
            return MockResponse(status: 403, reason: "BadCertificateEnvironment")
        }
        if requiresProviderToken && !byCertificate {
            switch checkProviderToken(request, auth: &auth, now: now) {
            case .failure(let problem): return problem
            case .success(let allowed): topics = allowed
            }
        }
        let bundleID: String
        switch checkTopic(request, allowed: topics, certificateTopics: auth.certificateTopics) {
        case .failure(let problem): return problem
        case .success(let id): bundleID = id
        }
        if let problem = checkDeliveryHeaders(request) { return problem }
        if let problem = checkPayload(request) { return problem }
        return registry.check(token: token, bundleID: bundleID) ?? .accepted
    }

    private func checkRequestLine(_ request: MockRequest) -> MockResponse? {
        guard request.method == "POST" else { return MockResponse(status: 405, reason: "MethodNotAllowed") }
        guard request.path.hasPrefix(Self.pathPrefix) else { return MockResponse(status: 404, reason: "BadPath") }
        let token = request.path.dropFirst(Self.pathPrefix.count)
        guard !token.isEmpty else { return MockResponse(status: 400, reason: "MissingDeviceToken") }
        // 32 bytes today; up to 100 bytes (as the sender allows) for the future, and no more.
        guard (64...DeviceToken.maximumDigits).contains(token.utf8.count), token.utf8.count % 2 == 0,
            token.utf8.allSatisfy(Self.isHexDigit)
        else {
            return MockResponse(status: 400, reason: "BadDeviceToken")
        }
        return nil
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x61 && byte <= 0x66) || (byte >= 0x41 && byte <= 0x46)
    }

    private func checkHeaderForm(_ request: MockRequest) -> MockResponse? {
        var seen = Set<String>()
        for header in request.headers where Self.checkedHeaders.contains(header.name) {
            guard seen.insert(header.name).inserted else {
                return MockResponse(status: 400, reason: "DuplicateHeaders")
            }
        }
        if let id = request.header("apns-id"), UUIDText.parse(id) == nil {
            return MockResponse(status: 400, reason: "BadMessageId")
        }
        return nil
    }

    /// The token's allowed topics when it is valid, else APNs' 403 (or 429 for too many token changes).
    func checkProviderToken(_ request: MockRequest, auth: inout ConnectionAuthState, now: Date)
        -> Result<Set<String>?, MockResponse>
    {
        guard let authorization = request.header("authorization") else {
            return .failure(MockResponse(status: 403, reason: "MissingProviderToken"))
        }
        let verified: VerifiedProviderToken
        if authorization == auth.token, let known = auth.verified {
            verified = known
        } else {
            switch verifier.verify(authorization: authorization) {
            case .failure(let rejection): return .failure(MockResponse(status: 403, reason: rejection.reason))
            case .success(let token): verified = token
            }
        }
        if let team = auth.teamID, team != verified.teamID {
            return .failure(MockResponse(status: 403, reason: "InvalidProviderToken"))
        }
        guard verified.issuedAt.timeIntervalSince(now) <= allowedClockSkew else {
            return .failure(MockResponse(status: 403, reason: "InvalidProviderToken"))
        }
        guard now.timeIntervalSince(verified.issuedAt) <= maximumTokenAge else {
            return .failure(MockResponse(status: 403, reason: "ExpiredProviderToken"))
        }
        if let current = auth.token, current != authorization, let since = auth.tokenSince {
            let previousExpired = auth.tokenIssuedAt.map { now.timeIntervalSince($0) > maximumTokenAge } ?? true
            if !previousExpired && now.timeIntervalSince(since) < tokenUpdateInterval {
                return .failure(MockResponse(status: 429, reason: "TooManyProviderTokenUpdates"))
            }
        }
        if auth.token != authorization {
            auth.token = authorization
            auth.tokenSince = now
            auth.tokenIssuedAt = verified.issuedAt
            auth.verified = verified
        }
        auth.teamID = verified.teamID
        auth.hasValidToken = true
        return .success(verified.topics)
    }

    /// The bundle id the topic addresses, else APNs' 400.
    private func checkTopic(_ request: MockRequest, allowed: Set<String>?, certificateTopics: Set<String>? = nil)
        -> Result<String, MockResponse>
    {
        guard let topic = request.header("apns-topic"), !topic.isEmpty else {
            return .failure(MockResponse(status: 400, reason: "MissingTopic"))
        }
        let bundleID: String
        switch Self.bundleID(
            topic: topic, pushType: request.header("apns-push-type"), tokenAuthentication: requiresProviderToken)
        {
        case .failure(let problem): return .failure(problem)
        case .success(let id): bundleID = id
        }
        if let allowed, !allowed.contains(bundleID) {
            return .failure(MockResponse(status: 400, reason: "TopicDisallowed"))
        }
        // A certificate lists whole topics (the app's, its `.voip`, its `.complication`…), not bundle ids.
        if let certificateTopics, !certificateTopics.contains(topic) {
            return .failure(MockResponse(status: 400, reason: "TopicDisallowed"))
        }
        return .success(bundleID)
    }

    private func checkDeliveryHeaders(_ request: MockRequest) -> MockResponse? {
        if let priority = request.header("apns-priority"),
            let problem = Self.priorityProblem(priority, pushType: request.header("apns-push-type"))
        {
            return problem
        }
        if let expiration = request.header("apns-expiration") {
            guard let seconds = Int64(expiration), seconds >= 0 else {
                return MockResponse(status: 400, reason: "BadExpirationDate")
            }
        }
        if let collapseID = request.header("apns-collapse-id"), collapseID.utf8.count > 64 {
            return MockResponse(status: 400, reason: "BadCollapseId")
        }
        return nil
    }

    private func checkPayload(_ request: MockRequest) -> MockResponse? {
        guard !request.body.isEmpty else { return MockResponse(status: 400, reason: "PayloadEmpty") }
        let pushType = PushType(rawValue: request.header("apns-push-type") ?? "alert")
        guard request.body.count <= pushType.maximumPayloadSize else {
            return MockResponse(status: 413, reason: "PayloadTooLarge")
        }
        // Apple documents no reason for malformed JSON; the mock answers 400 BadPayload.
        guard JSONSyntax.isObject(request.body) else {
            return MockResponse(status: 400, reason: "BadPayload")
        }
        return nil
    }
}
