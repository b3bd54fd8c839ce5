import Foundation
import Pushbutton
import PushbuttonAPNs
import PushbuttonAPNsMock
import PushbuttonTestSupport
import Testing

/// ``APNsClients`` against mocks standing in for production, the sandbox and a certificate-only endpoint:
/// the mock ties a connection to one team and one token, so any sharing APNs forbids would be refused.
@Suite(.timeLimit(.minutes(2))) struct APNsClientsTests {
    struct Setup {
        let directory: TemporaryDirectory
        let keyA: P256PrivateKey
        let keyB: P256PrivateKey
        let production: MockAPNs
        let sandbox: MockAPNs

        init() async throws {
            directory = try TemporaryDirectory(prefix: "pushbutton-clients")
            keyA = try P256PrivateKey.generate()
            keyB = try P256PrivateKey.generate()
            let keys = [
                try MockProviderKey(
                    keyID: "KEYAAAAAAA", teamID: "TEAMAAAAAA", privateKey: keyA, topics: ["com.a.chat", "com.a.maps"]),
                try MockProviderKey(keyID: "KEYBBBBBBB", teamID: "TEAMBBBBBB", privateKey: keyB, topics: ["com.b.app"]),
            ]
            production = try await MockAPNs.start(
                MockAPNsConfiguration(security: .selfSigned(directory: directory.path + "/production"), keys: keys))
            sandbox = try await MockAPNs.start(
                MockAPNsConfiguration(security: .selfSigned(directory: directory.path + "/sandbox"), keys: keys))
        }

        var tokenApps: [APNsApp] {
            [
                APNsApp(
                    topic: "com.a.chat", environment: production.environment,
                    credentials: .token(key: keyA, keyID: "KEYAAAAAAA", teamID: "TEAMAAAAAA")),
                APNsApp(
                    topic: "com.a.maps", environment: production.environment,
                    credentials: .token(key: keyA, keyID: "KEYAAAAAAA", teamID: "TEAMAAAAAA")),
                APNsApp(
                    topic: "com.b.app", environment: production.environment,
                    credentials: .token(key: keyB, keyID: "KEYBBBBBBB", teamID: "TEAMBBBBBB")),
                APNsApp(
                    topic: "com.a.chat", environment: sandbox.environment,
                    credentials: .token(key: keyA, keyID: "KEYAAAAAAA", teamID: "TEAMAAAAAA")),
            ]
        }

        func stop() async {
            await production.stop()
            await sandbox.stop()
            directory.remove()
        }
    }

    @Test func eachNotificationGoesToItsAppsTeamAndEnvironmentSharingConnectionsOnlyWithinATeam() async throws {
        let setup = try await Setup()
        let clients = try APNsClients(apps: setup.tokenApps, retryPolicy: RetryPolicy(maximumAttempts: 1))
        // One client for team A in production, one for team B, one for team A in the sandbox.
        #expect(clients.clients.count == 3)
        let production = setup.production.environment
        let topics = ["com.a.chat", "com.b.app", "com.a.maps", "com.b.app", "com.a.chat", "com.a.maps"]
        for (number, topic) in topics.enumerated() {
            let notification = try MockFixture.notification(token: MockFixture.token(number), topic: topic)
            let result = await clients.send(notification, environment: production)
            #expect(result.isDelivered, "\(topic): \(result)")
        }
        let recorded = setup.production.notifications
        #expect(recorded.map(\.topic) == topics)
        let connectionsByTopic = Dictionary(grouping: recorded, by: \.topic).mapValues { Set($0.map(\.connection)) }
        #expect(connectionsByTopic["com.a.chat"] == connectionsByTopic["com.a.maps"])
        #expect(connectionsByTopic["com.a.chat"]?.isDisjoint(with: connectionsByTopic["com.b.app"] ?? []) == true)

        // The sandbox's app is reached by naming its environment; without one, the topic is ambiguous.
        let sandboxed = await clients.send(
            try MockFixture.notification(topic: "com.a.chat"), environment: setup.sandbox.environment)
        #expect(sandboxed.isDelivered, "\(sandboxed)")
        #expect(setup.sandbox.notifications.map(\.topic) == ["com.a.chat"])
        let ambiguous = await clients.send(try MockFixture.notification(topic: "com.a.chat"))
        #expect("\(ambiguous)".contains("is configured for 2 environments"), "\(ambiguous)")
        // A suffixed topic goes to its bundle id's app; only team B's key has no environment to choose.
        let maps = await clients.send(try MockFixture.notification(topic: "com.b.app"))
        #expect(maps.isDelivered, "\(maps)")
        await clients.shutdown()
        await setup.stop()
    }

    @Test func anUnknownTopicIsAResultNotACrashAndRepeatedAppsAreRefused() async throws {
        let setup = try await Setup()
        let clients = try APNsClients(apps: setup.tokenApps)
        let unknown = await clients.send(try MockFixture.notification(topic: "com.nobody.app"))
        guard case .failed(_, 0, let cause) = unknown else {
            Issue.record("expected a failure without attempts, got \(unknown)")
            await clients.shutdown()
            return await setup.stop()
        }
        #expect(cause.kind == .invalidRequest)
        #expect(cause.message.contains("no app is configured for the topic 'com.nobody.app'"), "\(cause.message)")
        #expect(setup.production.counters.requests == 0)
        await clients.shutdown()
        #expect {
            _ = try APNsClients(apps: setup.tokenApps + [setup.tokenApps[0]])
        } throws: { "\($0)".contains("apps[4] repeats apps[0]") }
        #expect(throws: APNsError.self) { _ = try APNsClients(apps: []) }
        await setup.stop()
    }

    @Test func aCertificateAppGetsConnectionsOfItsOwnBesideTokenApps() async throws {
        let setup = try await Setup()
        let certificates = try await TestCertificates(directory: setup.directory.path + "/clients")
        var configuration = MockAPNsConfiguration(security: .selfSigned(directory: setup.directory.path + "/legacy"))
        configuration.clientCertificateAuthority = certificates.caFile
        let legacy = try await MockAPNs.start(configuration)
        let app = try await certificates.client("legacy", bundleID: "com.c.legacy")
        let clients = try APNsClients(
            apps: setup.tokenApps + [
                APNsApp(
                    topic: "com.c.legacy", environment: legacy.environment,
                    credentials: .certificate(.pkcs12(file: app.pkcs12, passphraseFile: app.passphraseFile)))
            ], retryPolicy: RetryPolicy(maximumAttempts: 1))
        #expect(clients.clients.count == 4)
        let certificateResult = await clients.send(try MockFixture.notification(topic: "com.c.legacy"))
        #expect(certificateResult.isDelivered, "\(certificateResult)")
        let tokenResult = await clients.send(try MockFixture.notification(topic: "com.b.app"))
        #expect(tokenResult.isDelivered, "\(tokenResult)")
        #expect(legacy.notifications.map(\.topic) == ["com.c.legacy"])
        await clients.shutdown()
        await legacy.stop()
        await setup.stop()
    }
}
