import Foundation
import Pushbutton
import PushbuttonReceiver
import PushbuttonReceiverTesting
import PushbuttonSupport
import PushbuttonTestSupport
import PushbuttonUserNotifications
import Testing
import UserNotificationsStandIn

/// Rich media in the service extension, against a local HTTP server: attached when it is what it says, and in every
/// hostile case (slow, 404, redirect loop, 2 GB, wrong type, TLS, no network, plain http) the notification is shown
/// with its buttons within the budget (a `ManualClock` that only the slow case moves), with the reason reported.
@Suite(.timeLimit(.minutes(2))) struct ServiceExtensionMediaTests {
    static let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0] + Array("JFIF".utf8) + [UInt8](repeating: 7, count: 2000)
    static let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + [UInt8](repeating: 1, count: 500)
    static let buttons = [DynamicButton("yes", title: "Yes"), DynamicButton("no", title: "No")]

    static let routes: [String: MediaTestServer.Response] = [
        "/ok.jpg": .body(status: 200, contentType: "image/jpeg", bytes: jpeg),
        "/ok.png": .body(status: 200, contentType: "application/octet-stream", bytes: png),
        "/loop": .redirect(to: "/loop"),
        "/hop": .redirect(to: "/ok.jpg"),
        "/slow.jpg": .stall(declaredLength: 1_000_000),
        "/huge.jpg": .stream(contentType: "image/jpeg", prefix: jpeg, total: 2_000_000_000, declaresLength: true),
        // No length declared and far past the image limit (10 MB); bounded, so the server's thread ends by itself
        // however long the client takes to hang up (FoundationNetworking's cancel let ~540 MB through once, and
        // under the thread sanitizer an unbounded stream kept both cores busy for minutes).
        "/endless.jpg": .stream(contentType: "image/jpeg", prefix: jpeg, total: 48_000_000, declaresLength: false),
        "/page.jpg": .body(status: 200, contentType: "image/jpeg", bytes: Array("<html>Not here</html>".utf8)),
    ]

    static func request(
        media: PayloadMedia?, buttons: [DynamicButton] = buttons, identifier: String = "push-1"
    ) -> UNNotificationRequest {
        var payload = Payload.interactive(category: "", body: "Sale!")
        payload.aps.category = nil
        if !buttons.isEmpty { payload.setDynamicButtons(buttons) }
        payload.setMedia(media)
        let userInfo = (try? UserNotificationsMapping.propertyList(payload.jsonValue.objectValue ?? [:])) ?? [:]
        let content = UNNotificationContent.standIn(
            body: "Sale!", categoryIdentifier: payload.aps.category ?? "", userInfo: userInfo)
        return UNNotificationRequest(identifier: identifier, content: content, trigger: nil)
    }

    /// A service on a clock that never moves unless the test moves it, reporting media into `reports`.
    struct Harness {
        let system = UNUserNotificationCenter()
        let clock = ManualClock()
        let reports = Locked<[MediaReport]>([])
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pb-media-\(UUID().uuidString)")
        let service: PushbuttonNotificationService

        init(allowsHTTP: Bool = true, downloader: any MediaDownloading = URLSessionMediaDownloader()) {
            let reports = reports
            service = PushbuttonNotificationService(
                center: system, budget: .seconds(20), clock: clock,
                options: NotificationServiceOptions(
                    allowsHTTPMedia: allowsHTTP, downloader: downloader, mediaFolder: folder,
                    onMedia: { report in reports.withLock { $0.append(report) } }))
        }

        func receive(_ request: UNNotificationRequest) async -> UNNotificationContent {
            await withCheckedContinuation { continuation in
                service.didReceive(request) { continuation.resume(returning: $0) }
            }
        }

        /// The content carries the dynamic category, and the category is registered: the buttons show.
        func expectButtons(_ content: UNNotificationContent) {
            let identifier = DynamicCategories.identifier(for: ServiceExtensionMediaTests.buttons)
            #expect(content.categoryIdentifier == identifier)
            #expect(system.standInCategories.contains { $0.identifier == identifier })
            #expect(content.body == "Sale!")
        }

        var failure: MediaFailure? {
            guard case .failure(let failure)? = reports.withLock({ $0.last?.outcome }) else { return nil }
            return failure
        }
    }

    @Test func anImageIsAttachedAsATemporaryFileWithItsFormatsExtensionBesideTheButtons() async throws {
        let server = try MediaTestServer(routes: Self.routes)
        defer { server.stop() }
        let harness = Harness()
        let content = await harness.receive(
            Self.request(media: PayloadMedia(url: server.url("/ok.png"), kind: .image)))
        harness.expectButtons(content)
        let attachment = try #require(content.attachments.first)
        #expect(attachment.url.pathExtension == "png")
        #expect(attachment.type == "public.png")
        #expect(try Data(contentsOf: attachment.url) == Data(Self.png))
        #expect(harness.reports.withLock { $0.map(\.outcome) } == [.success(.png)])
        // Through a redirect, too; and media without buttons keeps the category the payload has.
        let hopped = await harness.receive(Self.request(media: PayloadMedia(url: server.url("/hop"), kind: .image)))
        #expect(hopped.attachments.first?.url.pathExtension == "jpg")
        let plain = await Harness().receive(
            Self.request(media: PayloadMedia(url: server.url("/ok.jpg"), kind: .image), buttons: []))
        #expect(plain.attachments.count == 1 && plain.categoryIdentifier == "")
        try? FileManager.default.removeItem(at: harness.folder)
    }

    static let hostile: [(path: String, kind: PayloadMedia.Kind, expected: String)] = [
        ("/missing.jpg", .image, "httpStatus(404)"),
        ("/loop", .image, "tooManyRedirects"),
        ("/huge.jpg", .image, "tooLarge"),
        ("/endless.jpg", .image, "tooLarge"),
        ("/page.jpg", .image, "wrongType(unrecognized)"),
        ("/ok.jpg", .video, "wrongType(jpeg)"),
    ]

    static func name(_ failure: MediaFailure?) -> String {
        switch failure {
        case .httpStatus(let status)?: "httpStatus(\(status))"
        case .tooManyRedirects?: "tooManyRedirects"
        case .tooLarge?: "tooLarge"
        case .wrongType(_, let found)?: "wrongType(\(found))"
        case .timedOut?: "timedOut"
        case .tls?: "tls"
        case .network?: "network"
        case .insecureURL?: "insecureURL"
        case .attachment?: "attachment"
        case nil: "none"
        }
    }

    @Test(arguments: hostile)
    func hostileMediaLeavesTheButtonsAndSaysWhy(path: String, kind: PayloadMedia.Kind, expected: String) async throws {
        let server = try MediaTestServer(routes: Self.routes)
        defer { server.stop() }
        let harness = Harness()
        let content = await harness.receive(Self.request(media: PayloadMedia(url: server.url(path), kind: kind)))
        harness.expectButtons(content)
        #expect(content.attachments.isEmpty)
        #expect(Self.name(harness.failure) == expected)
        // The budget never passed: the clock was not moved.
        #expect(harness.clock.now.offset == .zero)
    }

    @Test func aServerThatNeverAnswersCostsTheMediaAtTheBudgetNotTheButtons() async throws {
        let server = try MediaTestServer(routes: Self.routes)
        defer { server.stop() }
        let harness = Harness()
        let content = await withCheckedContinuation { continuation in
            harness.service.didReceive(
                Self.request(media: PayloadMedia(url: server.url("/slow.jpg"), kind: .image))
            ) { continuation.resume(returning: $0) }
            Task {
                await yieldUntil { server.requests.contains("/slow.jpg") }
                await harness.clock.waitForSleepers()
                harness.clock.advance(by: .seconds(20))
            }
        }
        harness.expectButtons(content)
        #expect(content.attachments.isEmpty)
        await yieldUntil { !harness.reports.withLock { $0.isEmpty } }
        #expect(Self.name(harness.failure) == "timedOut")
    }

    @Test func tlsFailureNoNetworkAndPlainHTTPEachShowTheButtons() async throws {
        let server = try MediaTestServer(routes: Self.routes)
        defer { server.stop() }
        // https to a server that answers in plain HTTP: the TLS handshake fails.
        let plain = try MediaTestServer(routes: [:], greeting: Array("HTTP/1.1 400 Bad Request\r\n\r\n".utf8))
        defer { plain.stop() }
        let tls = Harness()
        let secure = await tls.receive(
            Self.request(media: PayloadMedia(url: "https://127.0.0.1:\(plain.port)/ok.jpg", kind: .image)))
        tls.expectButtons(secure)
        #expect(Self.name(tls.failure) == "tls", "\(String(describing: tls.failure))")
        // A port nobody listens on.
        let closed = try MediaTestServer(routes: [:])
        let closedPort = closed.port
        closed.stop()
        let offline = Harness()
        let none = await offline.receive(
            Self.request(media: PayloadMedia(url: "http://127.0.0.1:\(closedPort)/a.jpg", kind: .image)))
        offline.expectButtons(none)
        #expect(Self.name(offline.failure) == "network")
        // Plain http when the app does not allow it: refused before any request.
        let strict = Harness(allowsHTTP: false)
        let refused = await strict.receive(Self.request(media: PayloadMedia(url: server.url("/ok.jpg"), kind: .image)))
        strict.expectButtons(refused)
        #expect(Self.name(strict.failure) == "insecureURL")
        #expect(!server.requests.contains("/ok.jpg"))
    }

    @Test func theFormatIsReadFromTheBytes() {
        func sniff(_ bytes: [UInt8]) -> MediaFormat? { MediaFormat.sniff(bytes) }
        #expect(sniff(Self.jpeg) == .jpeg && sniff(Self.png) == .png && sniff(Array("GIF89a..".utf8)) == .gif)
        #expect(sniff([0, 0, 0, 0x20] + Array("ftypisom".utf8)) == .mpeg4Video)
        #expect(sniff([0, 0, 0, 0x20] + Array("ftypM4A ".utf8)) == .mpeg4Audio)
        #expect(sniff(Array("RIFF\u{0}\u{0}\u{0}\u{0}WAVEfmt ".utf8)) == .wave)
        #expect(sniff(Array("ID3\u{3}".utf8)) == .mp3)
        #expect(sniff(Array("<!doctype html>".utf8)) == nil && sniff([]) == nil)
        #expect(MediaFormat.gif.fits(.image) && !MediaFormat.jpeg.fits(.video) && MediaFormat.wave.fits(.audio))
    }
}
