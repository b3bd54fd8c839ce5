import Pushbutton
import PushbuttonReceiver
import PushbuttonReceiverTesting
import PushbuttonSupport

/// Records what the router handed to the backend.
final class RecordingBackend: BackendDelivery {
    let requests = Locked([BackendRequest]())
    func deliver(_ request: BackendRequest) async throws { requests.withLock { $0.append(request) } }
}

/// Records the URLs the router opened.
final class RecordingOpener: URLOpener {
    let opened = Locked([String]())
    func open(_ url: String) async -> Bool {
        opened.withLock { $0.append(url) }
        return true
    }
}

struct Boom: Error, CustomStringConvertible {
    var description: String { "boom" }
}

enum Fixtures {
    static let manifest: Manifest = Manifest.parse(
        #"""
        {"version": 1, "builtins": ["pushbutton.yes_no"], "categories": [
          {"identifier": "message", "options": ["customDismissAction"], "actions": [
            {"identifier": "reply", "title": {"key": "reply", "values": {"en": "Reply", "fr": "Répondre"}},
             "textInput": {"buttonTitle": "Send", "placeholder": "Message"}},
            {"identifier": "like", "title": {"key": "like", "values": {"en": "Like", "fr": "J’aime"}}, "options": ["authenticationRequired"], "icon": {"systemImage": "heart"}},
            {"identifier": "open", "title": "Open", "options": ["foreground"]},
            {"identifier": "delete", "title": "Delete", "options": ["destructive", "authenticationRequired"]}]},
          {"identifier": "quiet", "actions": [{"identifier": "ok", "title": "OK"}]}]}
        """#
    ).manifest!

    /// A center with the fixture manifest registered and permission granted, and a router on it.
    static func setUp(
        clock: ManualClock? = nil, options: RouterOptions = RouterOptions()
    ) async -> (SimulatedNotificationCenter, ResponseRouter, RecordingBackend, RecordingOpener) {
        let center: SimulatedNotificationCenter
        let router: ResponseRouter
        let backend = RecordingBackend()
        let opener = RecordingOpener()
        if let clock {
            center = SimulatedNotificationCenter(clock: clock)
            router = ResponseRouter(center: center, backend: backend, urlOpener: opener, options: options, clock: clock)
        } else {
            center = SimulatedNotificationCenter()
            router = ResponseRouter(center: center, backend: backend, urlOpener: opener, options: options)
        }
        _ = try? await center.requestAuthorization(options: [.alert, .sound])
        await CategoryRegistrar(center: center).register(manifest)
        await center.setResponseHandler(router)
        return (center, router, backend, opener)
    }
}
