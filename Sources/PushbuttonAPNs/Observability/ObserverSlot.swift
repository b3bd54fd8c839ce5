import Pushbutton
import PushbuttonSupport

/// The observers attached to a transport's loop or a token provider: read only when something rare
/// happens (a connection opens or closes, a token is made), so a lock costs nothing that matters.
final class ObserverSlot: Sendable {
    private let observers = Locked<[any APNsObserver]>([])

    func attach(_ observer: any APNsObserver) {
        observers.withLock { $0.append(observer) }
    }

    func report(_ event: @autoclosure () -> APNsEvent) {
        let current = observers.withLock { $0 }
        guard !current.isEmpty else { return }
        let event = event()
        for observer in current { observer.observe(event) }
    }
}

extension APNsEvent {
    /// A GOAWAY from `origin` whose debug data is `data`: APNs sends `{"reason":"…"}`, reported as the reason
    /// alone; other data as it came.
    static func goaway(origin: String, debugData data: String?) -> APNsEvent {
        let reason = data.map { text in
            (try? JSONParser.parse(Array(text.utf8)))?["reason"]?.stringValue ?? text
        }
        return .goaway(origin: origin, reason: reason)
    }
}
