import Foundation
import Pushbutton
import PushbuttonAPNs
import PushbuttonAPNsMock
import PushbuttonOutbox
import PushbuttonReceiver
import PushbuttonReceiverTesting

/// The demo's scenario, step by step. Every step uses the real components: the mock APNs over TLS, the
/// nghttp2 sender with a signed provider token, the simulated device's registrar and router, the SQLite
/// outbox and URLSession for the backend call.
final class DemoRun {
    let directory: String
    let locale: String
    let story: DemoStory
    private let deviceToken = "d0" + String(repeating: "5e", count: 31)
    private let deadToken = "de" + String(repeating: "ad", count: 31)
    private var mock: MockAPNs?
    private var client: APNsClient?
    private var backend: DemoBackend?
    private var outbox: Outbox?
    private let center: SimulatedNotificationCenter
    private let recorder = DemoRecorder()
    /// apns-id of each sent notification, by name.
    private var sent: [String: String] = [:]

    init(directory: String, locale: String, story: DemoStory) {
        self.directory = directory
        self.locale = locale
        self.story = story
        center = SimulatedNotificationCenter(locale: locale)
    }

    func perform() async throws {
        try define()
        let key = try await startAPNs()
        let router = try await setUpDevice()
        try await send(key: key)
        await showOnDevice()
        try await tap(router: router)
        try await deliverBackgroundTaps()
        try await summarize()
    }

    func tearDown() async {
        await client?.shutdown()
        await mock?.stop()
        backend?.stop()
    }

    // MARK: Steps

    private func define() throws {
        story.step("Define the buttons in Swift and write them as a manifest")
        let manifest = DemoContent.manifest
        try write(Array(JSONWriter.pretty(manifest.manifestJSON).utf8), to: "manifest.json")
        let categories = manifest.categorySet().categories
        story.say(
            "\(manifest.categories.count) app categories (message, friend_request, order_shipped) and \(manifest.builtins.count) "
                + "built-ins: \(categories.count) categories, \(categories.flatMap(\.actions).count) buttons, in en and fr"
        )
        let errors = manifest.lint().filter { $0.severity == .error }
        let notes = manifest.lint().count - errors.count
        story.check(errors.isEmpty, "the manifest lints clean (\(notes) \(notes == 1 ? "note" : "notes"))")
        story.say("wrote \(directory)/manifest.json")
    }

    private func startAPNs() async throws -> P256PrivateKey {
        story.step("Start a local APNs: the mock, over TLS with a throwaway CA, checking provider tokens")
        let key = try P256PrivateKey.generate()
        try write(Array(key.pemRepresentation.utf8), to: "AuthKey_\(DemoContent.keyID).p8", private: true)
        let mock = try await MockAPNs.start(
            MockAPNsConfiguration(
                security: .selfSigned(directory: directory + "/tls"),
                keys: [
                    try MockProviderKey(
                        keyID: DemoContent.keyID, teamID: DemoContent.teamID, privateKey: key,
                        topics: [DemoContent.topic])
                ]))
        self.mock = mock
        mock.registry.register(token: deviceToken, topic: DemoContent.topic)
        mock.registry.unregister(token: deadToken, at: Date(timeIntervalSinceNow: -86_400))
        story.say("listening on \(mock.environment.origin); clients trust \(mock.caFile ?? "")")
        story.say("provider key \(DemoContent.keyID) of team \(DemoContent.teamID) (a fresh P-256 key, file mode 0600)")
        story.check(mock.port > 0, "the mock APNs is up")
        return key
    }

    private func setUpDevice() async throws -> ResponseRouter {
        story.step("Set up a simulated iPhone (\(locale)): permission, categories, actions, outbox")
        let granted = try await center.requestAuthorization(options: [.alert, .sound, .badge])
        let report = await CategoryRegistrar(center: center).register(DemoContent.manifest)
        story.say("registered \(report.registered.count) categories: \(report.registered.joined(separator: ", "))")
        story.check(granted && report.registered.contains("message"), "notifications allowed and categories registered")
        let outbox = try Outbox(
            path: directory + "/outbox.sqlite", options: OutboxOptions(baseBackoff: .milliseconds(100)))
        self.outbox = outbox
        let router = ResponseRouter(center: center, backend: outbox, urlOpener: recorder)
        for action in ["accept", "ignore", "reply", "delete", "rsvp", "mark_read"] {
            let recorder = recorder
            try router.registry.register(action) { context in recorder.ran(context) }
        }
        let recorder = recorder
        router.observe { recorder.routed($0) }
        await center.setResponseHandler(router)
        story.say(
            "app actions: accept, ignore, reply, delete, rsvp, mark_read; backend callbacks go to the SQLite outbox")
        // What a Notification Service Extension does: register the payload's own buttons, then show it.
        let center = center
        let outboxForLog = outbox
        mock?.forward(token: deviceToken) { notification in
            guard let payload = notification.typedPayload else { return }
            _ = await CategoryRegistrar(center: center).prepare(for: payload)
            let shown = await center.deliver(payload, identifier: notification.apnsID)
            try? await outboxForLog.recordDelivered(shown.notification)
        }
        return router
    }

    private func send(key: P256PrivateKey) async throws {
        story.step("Send six notifications through the real sender (HTTP/2, ES256 provider token)")
        guard let mock else { return }
        let backend = try DemoBackend(failuresFirst: 1)
        self.backend = backend
        let client = APNsClient(
            transport: try NGHTTP2Transport(TransportConfiguration(environment: mock.environment)),
            tokens: TokenProvider(key: key, keyID: DemoContent.keyID, teamID: DemoContent.teamID))
        self.client = client
        let validator = PayloadValidator(manifest: DemoContent.manifest)
        for notification in DemoContent.notifications(backend: "http://127.0.0.1:\(backend.port)") {
            let problems = validator.validate(notification.payload).filter { $0.severity == .error }
            story.check(
                problems.isEmpty, "'\(notification.name)' is valid against the manifest (\(notification.purpose))")
            let bytes = PayloadWriter.encode(notification.payload)
            try write(bytes, to: "payloads/\(notification.name).json")
            let started = ContinuousClock.now
            let result = await client.send(
                APNsNotification(
                    deviceToken: try DeviceToken(notification.toDeadDevice ? deadToken : deviceToken), payload: bytes,
                    topic: DemoContent.topic, priority: 10))
            let time = (ContinuousClock.now - started).millisecondsText
            story.say("'\(notification.name)' (\(bytes.count) bytes): \(result) in \(time) ms")
            if notification.toDeadDevice {
                if case .rejected(_, 410, .unregistered, let since?) = result {
                    story.check(
                        true, "APNs says the device is gone since \(ISO8601DateFormatter().string(from: since))")
                } else {
                    story.check(false, "the dead device's token is reported Unregistered")
                }
            } else {
                story.check(result.isDelivered, "'\(notification.name)' accepted by APNs")
                sent[notification.name] = UUIDText.lowercase(result.apnsID)
            }
        }
    }

    private func showOnDevice() async {
        story.step("The device shows them")
        await mock?.deliveriesSettled()
        let shown = await center.deliveredNotifications
        for item in shown {
            let name = sent.first { $0.value == item.notification.identifier }?.key ?? "?"
            let buttons = item.buttons.map { "[\($0.title)]" }.joined(separator: " ")
            story.say("'\(name)' “\(item.notification.body)”  \(buttons)")
        }
        story.check(shown.count == 5, "five notifications arrived (the sixth went to a dead device)")
        let party = shown.first { $0.notification.identifier == sent["party"] }
        story.check(
            party?.buttons.map(\.identifier) == ["going", "maybe"], "the dynamic buttons were registered on arrival")
        let lunch = shown.first { $0.notification.identifier == sent["lunch"] }
        story.check(
            lunch?.buttons.count == 3 && lunch?.hiddenPreviewsPlaceholder != nil, "the message has its three buttons")
    }

    private func tap(router: ResponseRouter) async throws {
        story.step("The user taps")
        try await perform("tap Accept on 'friend' (a foreground button)") {
            try await center.tapButton(sent["friend"] ?? "", action: "accept")
        }
        story.check(
            recorder.contains("accept ran (foreground button) with {\"source\":\"suggestions\",\"user_id\":7}"),
            "the app's accept action got the payload's action_args")
        try await perform("tap Like on 'lunch' (a background button that calls the backend)") {
            try await center.tapButton(sent["lunch"] ?? "", action: "like")
        }
        let pending = try await outbox?.status().pending ?? 0
        story.check(pending == 1, "the backend call was committed to the outbox before the completion handler")
        try await perform("reply “Yes, 8 pm!” to 'reply'") {
            try await center.reply(sent["reply"] ?? "", action: "reply", text: "Yes, 8 pm!")
        }
        story.check(
            recorder.contains("reply ran (background button) with {} and reply “Yes, 8 pm!”"),
            "the reply reached the app")
        try await perform("tap Going on 'party' (a dynamic button)") {
            try await center.tapButton(sent["party"] ?? "", action: "going")
        }
        story.check(
            recorder.contains("rsvp ran (background button) with {\"answer\":\"yes\",\"event\":9}"),
            "the payload's rsvp action ran")
        try await perform("swipe 'digest' away (its category reports dismissals)") {
            try await center.dismiss(sent["digest"] ?? "")
        }
        story.check(recorder.contains("mark_read ran (dismiss) with {\"thread\":\"launch\"}"), "the dismiss action ran")
    }

    private func perform(_ what: String, _ gesture: () async throws -> ResponseDelivery?) async throws {
        let delivery = try await gesture()
        // The tap log, as an app would write it after routing (`Outbox.attach` does it without waiting).
        for report in recorder.takeReports() { try await outbox?.record(report) }
        for line in recorder.drain() { story.say("  → " + line) }
        guard let delivery else {
            story.check(false, "\(what): reported to the app")
            return
        }
        let calls = await center.completionCallCount(delivery.number)
        if case .called(let after) = delivery.completion {
            story.check(
                calls == 1, "\(what): completion handler called once, after \(after.millisecondsText) ms")
        } else {
            story.check(false, "\(what): completion handler called")
        }
    }

    private func deliverBackgroundTaps() async throws {
        story.step("The outbox delivers the background tap to the backend (which fails the first time)")
        guard let outbox, let backend else { return }
        let report = try await outbox.drain(sender: URLSessionSender(), untilEmpty: true, timeLimit: .seconds(20))
        for request in backend.requests {
            story.say(
                "backend got \(request.method) \(request.path) (Idempotency-Key \(request.idempotencyKey ?? "none")) "
                    + "and answered \(request.status)")
        }
        let keys = Set(backend.requests.compactMap(\.idempotencyKey))
        story.check(
            report.delivered == 1 && report.retried == 1 && backend.requests.map(\.status) == [503, 200],
            "delivered after one retry (\(report.attempted) attempts)")
        story.check(
            keys.count == 1, "both attempts carried the same idempotency key, so the backend can drop duplicates")
    }

    private func summarize() async throws {
        story.step("Tap statistics and outbox status")
        guard let outbox else { return }
        let summary = try await outbox.tapSummary()
        for line in TapSummaryText.lines(summary) { story.say(line) }
        let status = try await outbox.status()
        story.say(
            "outbox: \(status.pending) pending, \(status.inFlight) in flight, \(status.delivered) delivered, \(status.dead) dead"
        )
        story.check(
            summary.totalResponses == 5 && summary.totalDelivered == 5, "five responses to five deliveries logged")
        story.check(status.pending == 0 && status.dead == 0 && status.delivered == 1, "nothing left in the outbox")
        if let counters = mock?.counters {
            story.say(
                "mock APNs: \(counters.requests) requests, \(counters.accepted) accepted, \(counters.rejected) rejected"
            )
        }
        try write(Array(Self.readme(directory).utf8), to: "README.txt")
    }

    // MARK: Files

    private func write(_ bytes: [UInt8], to name: String, private isPrivate: Bool = false) throws {
        let path = directory + "/" + name
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        if isPrivate {
            try PrivateFile.write(String(decoding: bytes, as: UTF8.self), to: path)
        } else {
            try Data(bytes).write(to: URL(fileURLWithPath: path))
        }
    }

    static func readme(_ directory: String) -> String {
        """
        Files from `pushbutton demo --keep \(directory)`. Try:

          pushbutton lint manifest.json payloads/*.json
          pushbutton simulate payloads/lunch.json --manifest manifest.json --tap like
          pushbutton stats outbox.sqlite
          pushbutton outbox status outbox.sqlite
          pushbutton mock-apns --self-signed tls --auth-key AuthKey_\(DemoContent.keyID).p8 \\
            --key-id \(DemoContent.keyID) --team-id \(DemoContent.teamID)
        and, in another terminal, with the port it prints:
          pushbutton send --key AuthKey_\(DemoContent.keyID).p8 --key-id \(DemoContent.keyID) \\
            --team-id \(DemoContent.teamID) --topic \(DemoContent.topic) --host 127.0.0.1 --port PORT \\
            --ca tls/ca.pem --token \(String(repeating: "ab", count: 32)) --payload payloads/lunch.json

        """
    }
}
