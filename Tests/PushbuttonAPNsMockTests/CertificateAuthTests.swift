import Foundation
import Pushbutton
import PushbuttonAPNs
import PushbuttonAPNsMock
import PushbuttonTestSupport
import Testing

/// Certificate authentication end to end: the mock requires and verifies a client certificate and takes the
/// topics from it; the sender presents PEM files or a `.p12` with its pass phrase in a file.
@Suite(.timeLimit(.minutes(2))) struct CertificateAuthTests {
    struct Setup {
        let directory: TemporaryDirectory
        let certificates: TestCertificates
        let mock: MockAPNs

        init(environment: MockAPNsConfiguration.CertificateEnvironment? = nil) async throws {
            directory = try TemporaryDirectory(prefix: "pushbutton-certificates")
            certificates = try await TestCertificates(directory: directory.path + "/clients")
            var configuration = MockAPNsConfiguration(security: .selfSigned(directory: directory.path + "/server"))
            configuration.clientCertificateAuthority = certificates.caFile
            configuration.certificateEnvironment = environment
            mock = try await MockAPNs.start(configuration)
        }

        func client(_ certificate: ClientCertificate?) throws -> APNsClient {
            let transport = try NGHTTP2Transport(.init(environment: mock.environment, certificate: certificate))
            return APNsClient(
                transport: transport, tokens: nil, retryPolicy: RetryPolicy(maximumAttempts: 1),
                requestTimeout: .seconds(5))
        }

        func stop() async {
            await mock.stop()
            directory.remove()
        }
    }

    @Test func aP12WithItsPassPhraseFileCoversTheTopicsOfItsExtension() async throws {
        let setup = try await Setup()
        let app = try await setup.certificates.client(
            "app", bundleID: "com.example.app", topics: ["com.example.app", "com.example.app.voip"])
        let client = try setup.client(.pkcs12(file: app.pkcs12, passphraseFile: app.passphraseFile))
        let alert = await client.send(try MockFixture.notification())
        #expect(alert.isDelivered, "\(alert)")
        let voip = await client.send(
            try MockFixture.notification(topic: "com.example.app.voip", pushType: .voip, priority: 10))
        #expect(voip.isDelivered, "\(voip)")
        let other = await client.send(try MockFixture.notification(topic: "com.example.other"))
        guard case .rejected(_, 400, let reason, _) = other else {
            Issue.record("expected 400 TopicDisallowed, got \(other)")
            await client.shutdown()
            return await setup.stop()
        }
        #expect(reason.rawValue == "TopicDisallowed")
        await client.shutdown()
        #expect(setup.mock.notifications.map(\.topic) == ["com.example.app", "com.example.app.voip"])
        await setup.stop()
    }

    @Test func pemFilesWorkAndACertificateWithoutTheExtensionCoversItsUIDOnly() async throws {
        let setup = try await Setup()
        let app = try await setup.certificates.client("uid-only", bundleID: "com.example.app")
        let client = try setup.client(.pem(certificate: app.certificate, key: app.key))
        #expect(await client.send(try MockFixture.notification()).isDelivered)
        let voip = await client.send(
            try MockFixture.notification(topic: "com.example.app.voip", pushType: .voip, priority: 10))
        #expect("\(voip)".contains("400 TopicDisallowed"), "\(voip)")
        await client.shutdown()
        await setup.stop()
    }

    @Test func theMockRefusesAClientWithoutACertificateOrWithOneFromAnotherCA() async throws {
        let setup = try await Setup()
        let without = try setup.client(nil)
        let refused = await without.send(try MockFixture.notification())
        await without.shutdown()
        // The mock's alert names the missing certificate, but when the client's first write fails before it reads
        // that alert (seen under the thread sanitizer's timing) all it can say is that the connection failed.
        #expect(
            ["certificate required", "handshake", "the connection failed"].contains { "\(refused)".contains($0) },
            "\(refused)")
        #expect(!refused.isDelivered)

        let elsewhere = try await TestCertificates(directory: setup.directory.path + "/other")
        let stranger = try await elsewhere.client("stranger", bundleID: "com.example.app")
        let wrongCA = try setup.client(.pem(certificate: stranger.certificate, key: stranger.key))
        let refusedAgain = await wrongCA.send(try MockFixture.notification())
        await wrongCA.shutdown()
        #expect(!refusedAgain.isDelivered, "\(refusedAgain)")
        #expect(setup.mock.notifications.isEmpty)
        await setup.stop()
    }

    @Test func aWrongPassPhraseAnExpiredCertificateAndAMissingKeyAreClearErrors() async throws {
        let setup = try await Setup()
        let app = try await setup.certificates.client("app", bundleID: "com.example.app")
        let wrong = setup.directory.path + "/wrong.pass"
        try "not it\n".write(toFile: wrong, atomically: true, encoding: .utf8)
        #expect {
            _ = try setup.client(.pkcs12(file: app.pkcs12, passphraseFile: wrong))
        } throws: { error in
            let message = "\(error)"
            return message.contains("the pass phrase does not open '\(app.pkcs12)'") && !message.contains("not it")
        }
        #expect {
            _ = try setup.client(.pkcs12(file: app.pkcs12, passphraseFile: nil))
        } throws: { "\($0)".contains("protected by a pass phrase") }

        let expired = try await setup.certificates.client("expired", bundleID: "com.example.old", days: -1)
        for certificate in [
            ClientCertificate.pkcs12(file: expired.pkcs12, passphraseFile: expired.passphraseFile),
            .pem(certificate: expired.certificate, key: expired.key),
        ] {
            #expect {
                _ = try setup.client(certificate)
            } throws: { error in
                let message = "\(error)"
                return message.contains("(UID com.example.old) expired on ") && message.contains(" UTC")
            }
        }

        let keyless = try await setup.certificates.certificateOnlyPKCS12(app)
        #expect {
            _ = try setup.client(.pkcs12(file: keyless, passphraseFile: app.passphraseFile))
        } throws: { "\($0)".contains("holds no private key") }

        let other = try await setup.certificates.client("other", bundleID: "com.example.other")
        #expect {
            _ = try setup.client(.pem(certificate: app.certificate, key: other.key))
        } throws: { "\($0)".contains("the private key does not belong to the certificate") }
        await setup.stop()
    }

    @Test func aCertificateForTheOtherEnvironmentIsAnsweredBadCertificateEnvironment() async throws {
        let setup = try await Setup(environment: .production)
        let made = [
            ("development", ["sandbox"]), ("production", ["production"]), ("universal", ["sandbox", "production"]),
            ("unmarked", []),
        ]
        var answers: [String: String] = [:]
        for (name, environments) in made {
            let certificate = try await setup.certificates.client(
                name, bundleID: "com.example.app", environments: environments)
            let client = try setup.client(.pem(certificate: certificate.certificate, key: certificate.key))
            let result = await client.send(try MockFixture.notification())
            answers[name] = result.isDelivered ? "delivered" : "\(result)"
            await client.shutdown()
        }
        #expect(answers["development"]?.contains("403 BadCertificateEnvironment") == true, "\(answers)")
        #expect(answers["production"] == "delivered" && answers["universal"] == "delivered", "\(answers)")
        #expect(answers["unmarked"] == "delivered", "\(answers)")
        #expect(setup.mock.notifications.count == 3)
        await setup.stop()
    }

    @Test func theSenderRefusesACertificateForTheOtherOfApplesEnvironmentsAtStart() async throws {
        let setup = try await Setup()
        let development = try await setup.certificates.client(
            "development", bundleID: "com.example.app", environments: ["sandbox"])
        let production = try await setup.certificates.client(
            "production", bundleID: "com.example.app", environments: ["production"])
        let universal = try await setup.certificates.client(
            "universal", bundleID: "com.example.app", environments: ["sandbox", "production"])
        func transport(_ client: TestCertificates.Client, _ environment: APNsEnvironment) throws -> NGHTTP2Transport {
            try NGHTTP2Transport(
                .init(environment: environment, certificate: .pem(certificate: client.certificate, key: client.key)))
        }
        #expect {
            _ = try transport(development, .production)
        } throws: { error in
            "\(error)".contains("(UID com.example.app) is for APNs' development environment, not production")
        }
        #expect {
            _ = try transport(production, .sandbox)
        } throws: { error in
            "\(error)".contains("(UID com.example.app) is for APNs' production environment, not the sandbox")
        }
        // Opening the transport connects to nothing yet: these only load and check the certificate.
        for (client, environment) in [
            (development, APNsEnvironment.sandbox), (production, .production), (universal, .production),
            (universal, .sandbox),
        ] {
            await (try transport(client, environment)).shutdown()
        }
        await setup.stop()
    }
}
