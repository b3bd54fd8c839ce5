import Foundation
import Pushbutton
import PushbuttonAPNs
import PushbuttonAPNsMock
import Testing

/// The channel management API end to end: ``APNsChannels`` over the nghttp2 transport against the mock,
/// which validates each request as APNs documents it.
@Suite(.timeLimit(.minutes(2))) struct ChannelManagementTests {
    static let bundleID = MockFixture.topic

    static func channels(_ fixture: MockFixture, observer: (any APNsObserver)? = nil) throws -> APNsChannels {
        let transport = try NGHTTP2Transport(.init(environment: fixture.mock.environment.channelManagement))
        let tokens = TokenProvider(key: fixture.key, keyID: MockFixture.keyID, teamID: MockFixture.teamID)
        return APNsChannels(
            transport: transport, tokens: tokens, retryPolicy: RetryPolicy(baseBackoff: .milliseconds(2)),
            requestTimeout: .seconds(5), observer: observer)
    }

    /// A request as the transport sends it, signed with the fixture's key, for what the typed API never sends.
    static func raw(
        _ fixture: MockFixture, method: String, path: String, headers: [(name: String, value: String)] = [],
        body: String = "", signed: Bool = true
    ) async throws -> (status: Int, reason: String?, headers: [String: String], body: String) {
        let transport = try NGHTTP2Transport(.init(environment: fixture.mock.environment))
        defer { Task { await transport.shutdown() } }
        var all = headers
        if signed {
            let token = try ProviderToken(
                key: fixture.key, keyID: MockFixture.keyID, teamID: MockFixture.teamID, issuedAt: Date())
            all.insert(("authorization", token.authorization), at: 0)
        }
        let response = try await transport.send(
            HTTPRequest(method: method, path: path, headers: all, body: Array(body.utf8), timeout: .seconds(5)))
        let reason = (try? JSONParser.parse(response.body))?["reason"]?.stringValue
        return (response.status, reason, response.headers, String(decoding: response.body, as: UTF8.self))
    }

    @Test func createListReadDeleteEndToEnd() async throws {
        let fixture = try await MockFixture()
        let channels = try Self.channels(fixture)
        let requestID = UUID()
        let created = try await channels.create(
            bundleID: Self.bundleID, messageStoragePolicy: .mostRecentMessageStored, requestID: requestID)
        #expect(created.requestID == requestID.uuidString.lowercased())
        #expect(Data(base64Encoded: created.id) != nil, "a channel id is base64 text: \(created.id)")
        #expect(fixture.mock.channels.channel(bundleID: Self.bundleID, id: created.id)?.messageStoragePolicy == 1)

        let second = try await channels.create(bundleID: Self.bundleID)
        let list = try await channels.list(bundleID: Self.bundleID)
        #expect(list.channelIDs == [created.id, second.id])
        #expect(list.requestID != nil && list.requestID != created.requestID)

        let read = try await channels.read(bundleID: Self.bundleID, channelID: created.id)
        #expect(read.messageStoragePolicy == .mostRecentMessageStored && read.pushType == "LiveActivity")
        #expect(read.id == created.id && read.bundleID == Self.bundleID)

        let deleted = try await channels.delete(bundleID: Self.bundleID, channelID: created.id)
        #expect(deleted.channelID == created.id && deleted.requestID != nil)
        #expect(try await channels.list(bundleID: Self.bundleID).channelIDs == [second.id])
        #expect(try await channels.list(bundleID: "com.example.other").channelIDs.isEmpty)
        await channels.shutdown()
        await fixture.stop()
    }

    @Test func anUnknownChannelIsChannelNotRegisteredWithTheRequestID() async throws {
        let fixture = try await MockFixture()
        let channels = try Self.channels(fixture)
        let requestID = UUID()
        await #expect {
            _ = try await channels.read(
                bundleID: Self.bundleID, channelID: "bm90LWEtY2hhbm5lbA==", requestID: requestID)
        } throws: { error in
            guard case .rejected(410, .channelNotRegistered, let id) = error as? APNsChannelError else { return false }
            return id == requestID.uuidString.lowercased() && "\(error)".contains("list the channels")
        }
        let created = try await channels.create(bundleID: Self.bundleID)
        _ = try await channels.delete(bundleID: Self.bundleID, channelID: created.id)
        await #expect {
            _ = try await channels.delete(bundleID: Self.bundleID, channelID: created.id)
        } throws: { ($0 as? APNsChannelError)?.reason == .channelNotRegistered }
        // A channel belongs to its bundle id.
        let other = try await channels.create(bundleID: "com.example.other")
        await #expect {
            _ = try await channels.read(bundleID: Self.bundleID, channelID: other.id)
        } throws: { ($0 as? APNsChannelError)?.reason?.channelIsGone == true }
        await channels.shutdown()
        await fixture.stop()
    }

    @Test func malformedIdsAndPoliciesFailBeforeARequestIsSent() async throws {
        let fixture = try await MockFixture()
        let channels = try Self.channels(fixture)
        for (bundle, channel) in [("com.example.app", "not base64!"), ("com/example", "YWJj"), ("", "YWJj")] {
            await #expect {
                _ = try await channels.read(bundleID: bundle, channelID: channel)
            } throws: { error in
                guard case .failed(let cause, attempts: 0) = error as? APNsChannelError else { return false }
                return cause.kind == .invalidRequest
            }
        }
        await #expect {
            _ = try await channels.create(bundleID: Self.bundleID, messageStoragePolicy: .init(rawValue: 7))
        } throws: { "\($0)".contains("message storage policy 7") }
        #expect(fixture.mock.counters.requests == 0)
        await channels.shutdown()
        await fixture.stop()
    }

    @Test func theMockAnswersAPNsReasonsForWhatTheTypedAPINeverSends() async throws {
        let fixture = try await MockFixture()
        let channel = try #require(fixture.mock.channels.add(bundleID: Self.bundleID))
        let path = "/1/apps/\(Self.bundleID)/channels"
        let cases: [(String, String, [(name: String, value: String)], String, Bool, Int, String?)] = [
            ("GET", path, [], "", true, 400, "MissingChannelId"),
            ("DELETE", path, [("apns-channel-id", "%%%")], "", true, 400, "BadChannelId"),
            ("POST", path, [], #"{"push-type":"LiveActivity"}"#, true, 400, "BadMessageStoragePolicy"),
            (
                "POST", path, [], #"{"message-storage-policy":2,"push-type":"LiveActivity"}"#, true, 400,
                "BadMessageStoragePolicy"
            ),
            ("POST", path, [], #"{"message-storage-policy":0}"#, true, 400, "MissingPushType"),
            ("POST", path, [], #"{"message-storage-policy":0,"push-type":"Alert"}"#, true, 400, "InvalidPushType"),
            ("POST", path, [], "[]", true, 400, "BadPayload"),
            ("PUT", path, [], "", true, 405, "MethodNotAllowed"),
            ("GET", "/1/apps/\(Self.bundleID)/somewhere", [], "", true, 404, "BadPath"),
            ("GET", "/1/apps/\(Self.bundleID)/all-channels", [], "", false, 403, "MissingProviderToken"),
            (
                "GET", path, [("apns-channel-id", channel.id), ("apns-channel-id", channel.id)], "", true, 400,
                "DuplicateHeaders"
            ),
            ("GET", path, [("apns-channel-id", channel.id)], "", true, 200, nil),
        ]
        for (method, path, headers, body, signed, status, reason) in cases {
            let answer = try await Self.raw(
                fixture, method: method, path: path, headers: headers, body: body, signed: signed)
            #expect(answer.status == status && answer.reason == reason, "\(method) \(path) \(headers): \(answer)")
            #expect(answer.headers["apns-request-id"].flatMap(UUID.init(uuidString:)) != nil)
        }
        await fixture.stop()
    }

    @Test func aBundleIDAtItsLimitCannotCreateAnotherChannel() async throws {
        let directory = NSTemporaryDirectory() + "pushbutton-channels-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let key = try P256PrivateKey.generate()
        var configuration = MockAPNsConfiguration(
            security: .selfSigned(directory: directory),
            keys: [try MockProviderKey(keyID: MockFixture.keyID, teamID: MockFixture.teamID, privateKey: key)])
        configuration.channelsPerBundleID = 2
        let mock = try await MockAPNs.start(configuration)
        let channels = APNsChannels(
            transport: try NGHTTP2Transport(.init(environment: mock.environment)),
            tokens: TokenProvider(key: key, keyID: MockFixture.keyID, teamID: MockFixture.teamID))
        _ = try await channels.create(bundleID: Self.bundleID)
        _ = try await channels.create(bundleID: Self.bundleID)
        await #expect {
            _ = try await channels.create(bundleID: Self.bundleID)
        } throws: { error in
            (error as? APNsChannelError)?.reason == .cannotCreateChannelConfig && "\(error)".contains("10,000")
        }
        #expect(mock.channels.channels(bundleID: Self.bundleID).count == 2)
        await channels.shutdown()
        await mock.stop()
    }

    @Test func aTopicRestrictedKeyCannotManageAnotherAppsChannels() async throws {
        let fixture = try await MockFixture(topics: ["com.example.other"])
        let channels = try Self.channels(fixture)
        await #expect {
            _ = try await channels.create(bundleID: Self.bundleID)
        } throws: { ($0 as? APNsChannelError)?.reason == .topicDisallowed }
        _ = try await channels.create(bundleID: "com.example.other")
        await channels.shutdown()
        await fixture.stop()
    }

    @Test func theManagementHostsAreApplesAndAStandInIsKeptAsItIs() {
        #expect(
            APNsEnvironment.sandbox.channelManagement.origin
                == "https://api-manage-broadcast.sandbox.push.apple.com:2195")
        #expect(
            APNsEnvironment.production.channelManagement.origin == "https://api-manage-broadcast.push.apple.com:2196")
        let local = APNsEnvironment(host: "127.0.0.1", port: 2197, caFile: "/tmp/ca.pem")
        #expect(local.channelManagement == local)
    }

    @Test func requestsAreBuiltAsAppleDocumentsThem() {
        let id = UUID(uuidString: "8F0A0F5E-2B36-4E6A-9C77-2D6E5C1B2A10")!
        let create = APNsChannelRequest(
            bundleID: "com.example.app", operation: .create(.mostRecentMessageStored), requestID: id)
        #expect(create.method == "POST" && create.path == "/1/apps/com.example.app/channels")
        let body = try? JSONParser.parse(create.body)
        #expect(body?["message-storage-policy"]?.doubleValue == 1 && body?["push-type"]?.stringValue == "LiveActivity")
        #expect(
            create.headers(token: nil).contains { $0 == ("apns-request-id", "8f0a0f5e-2b36-4e6a-9c77-2d6e5c1b2a10") })
        #expect(!create.isIdempotent)
        let list = APNsChannelRequest(bundleID: "com.example.app", operation: .list)
        #expect(list.method == "GET" && list.path == "/1/apps/com.example.app/all-channels" && list.body.isEmpty)
        let delete = APNsChannelRequest(bundleID: "com.example.app", operation: .delete(channelID: "YWJj"))
        #expect(delete.method == "DELETE" && delete.headers(token: nil).contains { $0 == ("apns-channel-id", "YWJj") })
        #expect(APNsMessageStoragePolicy(name: "most-recent-message-stored") == .mostRecentMessageStored)
        #expect(APNsMessageStoragePolicy(name: "0") == .noMessageStored && APNsMessageStoragePolicy(name: "2") == nil)
        #expect(APNsReason.channelNotRegistered.isKnown && APNsReason.featureNotEnabled.isKnown)
    }
}
