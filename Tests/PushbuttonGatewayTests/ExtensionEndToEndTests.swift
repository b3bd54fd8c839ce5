import Foundation
import Pushbutton
import PushbuttonAPNsMock
import PushbuttonGateway
import PushbuttonOutbox
import PushbuttonReceiver
import PushbuttonReceiverTesting
import PushbuttonStore
import PushbuttonSupport
import PushbuttonTestSupport
import PushbuttonUserNotifications
import Testing
import UserNotificationsStandIn

/// Issue 37's end-to-end test: the gateway on SQLite, the mock APNs, and four simulated phones whose Notification
/// Service Extension (the stand-in center, ``PushbuttonNotificationService`` on a clock of its own) downloads the
/// notification's media from a local server: one image that is fine, one server that never answers, one 404, one
/// 50 MB "image". Every notification is shown with its buttons, no budget is exceeded, and every display receipt
/// reaches the gateway exactly once, including the one whose extension was killed after writing it.
@Suite(.timeLimit(.minutes(3)))
struct ExtensionEndToEndTests {
    typealias F = GatewayFixture

    static let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0] + Array("JFIF".utf8) + [UInt8](repeating: 3, count: 4000)
    static let buttons = [DynamicButton("going", title: "Going"), DynamicButton("maybe", title: "Maybe")]

    /// A recorder that passes receipts to the phone's gateway client; a "killed" one never gets to send them.
    final class ExtensionRecorder: DisplayReceiptRecorder {
        let client: GatewayClient
        let killed: Bool
        let flushes = Locked(0)

        init(client: GatewayClient, killed: Bool) {
            self.client = client
            self.killed = killed
        }

        func recordReceipt(for payload: Payload, receivedAt: Date) async throws -> Bool {
            try await client.recordReceipt(for: payload, receivedAt: receivedAt)
        }

        func deliverWaiting(timeLimit: Duration) async {
            if !killed { await client.deliverWaiting(timeLimit: timeLimit) }
            flushes.withLock { $0 += 1 }
        }
    }

    /// A phone: the system's center, the outbox in its App Group folder, the app's registration, the extension.
    struct Phone {
        let token: String
        let folder: String
        let center = UNUserNotificationCenter()
        let clock = ManualClock()
        let recorder: ExtensionRecorder
        let service: PushbuttonNotificationService
        let shown = Locked<[(content: UNNotificationContent, at: Duration)]>([])
        let media = Locked<[MediaReport]>([])

        init(number: Int, fixture: GatewayFixture, killed: Bool = false) async throws {
            token = F.token(number)
            folder = fixture.directory + "/group-\(number)"
            let client = try Self.client(fixture: fixture, folder: folder)
            #expect(try await client.register(token: token))
            #expect(try await client.outbox.drain(sender: client.sender(), untilEmpty: true).delivered == 1)
            recorder = ExtensionRecorder(client: client, killed: killed)
            let media = media
            service = PushbuttonNotificationService(
                center: center, budget: .seconds(20), clock: clock,
                options: NotificationServiceOptions(
                    allowsHTTPMedia: true,
                    mediaFolder: URL(fileURLWithPath: folder + "/media"), receipts: recorder,
                    onMedia: { report in media.withLock { $0.append(report) } }))
            let (service, shown, clock) = (service, shown, clock)
            fixture.mock.forward(token: token) { notification in
                guard let payload = notification.typedPayload else { return }
                service.didReceive(Self.request(payload, identifier: notification.apnsID)) { content in
                    shown.withLock { $0.append((content, clock.now.offset)) }
                }
            }
        }

        /// The gateway client over the outbox in `folder`, as the app and its extension each open it.
        static func client(fixture: GatewayFixture, folder: String) throws -> GatewayClient {
            let outbox = try Outbox(path: folder + "/pushbutton-outbox.sqlite")
            return try GatewayClient(
                connection: GatewayConnection(baseURL: fixture.base, app: "chat", publishableKey: F.publishable),
                outbox: outbox)
        }

        static func request(_ payload: Payload, identifier: String) -> UNNotificationRequest {
            let userInfo = (try? UserNotificationsMapping.propertyList(payload.jsonValue.objectValue ?? [:])) ?? [:]
            let content = UNNotificationContent.standIn(
                body: payload.aps.alert.map { "\($0)" } ?? "", categoryIdentifier: payload.aps.category ?? "",
                userInfo: userInfo)
            return UNNotificationRequest(identifier: identifier, content: content, trigger: nil)
        }

        /// The buttons show: the content names the dynamic category, and the extension registered it.
        func expectShownWithButtons() {
            let identifier = DynamicCategories.identifier(for: ExtensionEndToEndTests.buttons)
            let shown = shown.withLock { $0 }
            #expect(shown.count == 1, "\(token.suffix(4))")
            #expect(shown.first?.content.categoryIdentifier == identifier)
            #expect(center.standInCategories.contains { $0.identifier == identifier })
            #expect(shown.allSatisfy { $0.at <= .seconds(20) }, "the budget was exceeded")
        }
    }

    static func send(_ fixture: GatewayFixture, to phone: Phone, media: String) async throws -> String {
        var payload = Payload.interactive(category: "", title: "Party", body: "Friday 8pm")
        payload.setDynamicButtons(buttons)
        payload.setMedia(PayloadMedia(url: media, kind: .image))
        payload.actions?.extra["variant"] = "b"
        let json = String(decoding: PayloadWriter.encode(payload), as: UTF8.self)
        let sent = try await fixture.request(
            "POST", "/v1/apps/chat/notifications",
            json: #"{"to": {"tokens": ["\#(phone.token)"]}, "payload": \#(json)}"#)
        #expect(sent.status == 202, "\(sent.body)")
        let id = try #require(sent.json?.objectValue?["id"]?.stringValue)
        _ = try await fixture.settled(id)
        return id
    }

    @Test func everyNotificationIsShownWithItsButtonsAndEveryReceiptCountsOnce() async throws {
        let fixture = try await GatewayFixture()
        defer { Task { await fixture.stop() } }
        let server = try MediaTestServer(routes: [
            "/ok.jpg": .body(status: 200, contentType: "image/jpeg", bytes: Self.jpeg),
            "/slow.jpg": .stall(declaredLength: 1_000_000),
            "/big.jpg": .stream(contentType: "image/jpeg", prefix: Self.jpeg, total: 50_000_000, declaresLength: false),
        ])
        defer { server.stop() }
        let fine = try await Phone(number: 1, fixture: fixture)
        let slow = try await Phone(number: 2, fixture: fixture)
        let missing = try await Phone(number: 3, fixture: fixture, killed: true)
        let big = try await Phone(number: 4, fixture: fixture)

        var ids: [String] = []
        for (phone, path) in [(fine, "/ok.jpg"), (slow, "/slow.jpg"), (missing, "/missing.jpg"), (big, "/big.jpg")] {
            ids.append(try await Self.send(fixture, to: phone, media: server.url(path)))
        }
        await fixture.mock.deliveriesSettled()
        // The slow server holds its download until the budget passes on that phone's clock.
        await yieldUntil { server.requests.contains("/slow.jpg") }
        await slow.clock.waitForSleepers()
        slow.clock.advance(by: .seconds(20))
        // The slow phone's extension was out of budget: it sends nothing (iOS ends it), the others do.
        await yieldUntil { slow.shown.withLock { $0.count } == 1 && !slow.media.withLock { $0.isEmpty } }
        for phone in [fine, missing, big] { await yieldUntil { phone.recorder.flushes.withLock { $0 } == 1 } }
        for phone in [fine, slow, missing, big] { phone.expectShownWithButtons() }
        #expect(fine.shown.withLock { $0.first?.content.attachments.count } == 1)
        #expect(fine.shown.withLock { $0.first?.at } == .zero)
        #expect(slow.shown.withLock { $0.first?.at } == .seconds(20))
        for phone in [slow, missing, big] { #expect(phone.shown.withLock { $0.first?.content.attachments } == []) }
        func failure(_ phone: Phone) -> MediaFailure? {
            guard case .failure(let failure)? = phone.media.withLock({ $0.first?.outcome }) else { return nil }
            return failure
        }
        #expect(failure(slow) == .timedOut)
        #expect(failure(missing) == .httpStatus(404))
        #expect(failure(big) == .tooLarge(limit: PayloadMedia.Kind.image.maximumBytes))

        // Two receipts arrived from the extensions; the killed one's and the out-of-budget one's wait in their
        // outboxes, committed before the content was handed back.
        func received() async throws -> JSONValue? {
            try await fixture.request("GET", "/v1/apps/chat/stats").json?.objectValue?["received"]
        }
        #expect(try await received() == 2)
        for phone in [slow, missing] {
            #expect(try await phone.recorder.client.outbox.status().pending == 1)
            // The app launches next, opens the same outbox in the App Group folder and sends it.
            let app = try Phone.client(fixture: fixture, folder: phone.folder)
            #expect(try await app.outbox.drain(sender: app.sender(), untilEmpty: true).delivered == 1)
        }
        #expect(try await received() == 4)
        // The extension runs again for the killed phone's notification (the same receipt id): still one each.
        let rerun = ExtensionRecorder(client: try Phone.client(fixture: fixture, folder: missing.folder), killed: false)
        let payload = try #require(fixture.mock.notifications.first { $0.deviceToken == missing.token }?.typedPayload)
        _ = try await rerun.recordReceipt(for: payload, receivedAt: Date())
        await rerun.deliverWaiting(timeLimit: .seconds(20))
        #expect(try await received() == 4)
        let receipts = try #require(fixture.gateway.store as? any ReceiptStore)
        for id in ids { #expect(try receipts.receivedCount(StatsQuery(app: "chat", scope: .notification(id))) == 1) }
    }
}
