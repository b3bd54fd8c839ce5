// A test of the app's buttons without a device: the simulated center shows what iOS would show, taps, and
// checks the completion handler.
import Pushbutton
import PushbuttonReceiver
import PushbuttonReceiverTesting

// snippet.hide
/// What the test's backend received.
final class Recorder: BackendDelivery {
    func deliver(_ request: BackendRequest) async throws {}
}
let manifest = Manifest(categories: [
    Pushbutton.Category(
        "message",
        actions: [Action("reply", title: "Reply"), Action("like", title: "Like"), Action("delete", title: "Delete")])
])
let payload = Payload.interactive(category: "message", title: "Anna", body: "Lunch tomorrow?")
let recorder = Recorder()
func expect(_ condition: Bool) { precondition(condition) }

// snippet.show
func likeCallsTheBackend() async throws {
    let clock = ManualClock()
    let center = SimulatedNotificationCenter(locale: "en", clock: clock)
    _ = try await center.requestAuthorization(options: [.alert])
    await CategoryRegistrar(center: center).register(manifest)
    let router = ResponseRouter(center: center, backend: recorder, clock: clock)
    await center.setResponseHandler(router)

    let shown = await center.deliver(payload)  // buttons as iOS would show them
    expect(shown.buttons.map(\.identifier) == ["reply", "like", "delete"])  // #expect in a Swift Testing test
    let delivery = try await center.tapButton(shown.notification.identifier, action: "like")
    expect(await center.completionCallCount(delivery.number) == 1)
}
